import BibreadTestSupport
import Foundation
import Testing

/// `t` and `+` in the real binary on a copy of the sample library (BibDesk's conventions and
/// static groups): the keyword and the group membership are written to the .bib, shown at once,
/// and there after the reader is started again. Needs the keys branch's `requestEdit` (the
/// write); with its stub this test fails at the first wait for the file.
@Suite("Keywords and static groups, end to end (tmux)", .onOwnThreads)
struct PickersEndToEndTests {
    /// Waits until the file at `url` holds every one of `texts`.
    private func waitForFile(_ url: URL, toContain texts: String..., timeout: Duration = .seconds(20)) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: TestTiming.duration(timeout))
        var text = ""
        while clock.now < deadline {
            text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if texts.allSatisfy(text.contains) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw EndToEndFailure("timed out after \(timeout) waiting for \(url.lastPathComponent) to hold \(texts)", screen: text)
    }

    @Test("t tags and + files the selected paper; both are on disk and still there after a restart")
    func tagAndFileAPaper() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            let folder = sandbox.home.appendingPathComponent("papers")
            try? Fixtures.copySampleLibrary(to: folder)
            return sandbox.bibread([folder.appendingPathComponent("library.bib").path])
        }) { tmux, sandbox in
            let bib = sandbox.home.appendingPathComponent("papers/library.bib")
            let before = try String(contentsOf: bib, encoding: .utf8)
            #expect(before.contains("\tKeywords = {typesetting, TeX},"))
            try await tmux.waitFor("25 of 25")
            try await tmux.sendKeys("/")
            try await tmux.type("key:knuth1984texbook")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("1 of 25")

            // Keywords: complete "grap" to graphs, remove TeX.
            try await tmux.sendKeys("t")
            try await tmux.waitFor("Keywords of knuth1984texbook", "Has: typesetting; TeX")
            try await tmux.type("grap")
            try await tmux.sendKeys("Tab")
            try await tmux.waitFor("› graphs")
            try await tmux.type(" -tex")
            try await tmux.sendKeys("Enter")
            try await waitForFile(bib, toContain: "\tKeywords = {typesetting, graphs},")
            try await tmux.waitFor("typesetting, graphs")

            // Static groups: tick To read.
            try await tmux.sendKeys("+")
            try await tmux.waitFor("Static groups of knuth1984texbook", "[ ]  To read", "[x]  Typesetting course")
            try await tmux.sendKeys("Space")
            try await tmux.waitFor("[x]* To read")
            try await tmux.sendKeys("Enter")
            try await waitForFile(bib, toContain: "<string>turing1936computable,heyl2023understanding,geisberger2008contraction,muller2015fundamentals,knuth1984texbook</string>")
            try await tmux.waitUntil("the checklist to close") { !$0.contains("Static groups of") }
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)

            // Nothing else of the file changed: the two splices and the modification date.
            let after = try String(contentsOf: bib, encoding: .utf8)
            let changed = zip(before.split(separator: "\n", omittingEmptySubsequences: false),
                              after.split(separator: "\n", omittingEmptySubsequences: false)).filter { $0 != $1 }
            #expect(changed.count <= 3, "\(changed)")

            // Started again: both are read back from the file.
            try await tmux.respawn()
            try await tmux.waitFor("25 of 25")
            try await tmux.sendKeys("/")
            try await tmux.type("key:knuth1984texbook")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("1 of 25")
            try await tmux.sendKeys("t")
            try await tmux.waitFor("Has: typesetting; graphs")
            try await tmux.sendKeys("Escape")
            try await tmux.waitUntil("the prompt to close") { !$0.contains("Keywords of") }
            try await tmux.sendKeys("+")
            try await tmux.waitFor("[x]  To read", "[x]  Typesetting course")
            try await tmux.sendKeys("Escape")
            try await tmux.waitUntil("the checklist to close") { !$0.contains("Static groups of") }
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
