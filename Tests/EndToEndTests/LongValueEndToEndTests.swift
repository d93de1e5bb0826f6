import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A reference with a field of 10 MB and no space in it (a base64 blob pasted into `note`),
/// selected in the real reader: every key still acts, and the reader still ends on `q`, Ctrl-C,
/// SIGTERM, SIGINT, SIGHUP and a closed terminal, each within a second (issue 26, item 5: wrapping
/// it took minutes per key, and nothing, not even SIGTERM, ended the reader in the meantime).
@Suite("A 10 MB value without spaces, end to end (tmux)", .serialized, .onOwnThreads)
struct LongValueEndToEndTests {
    /// How long a key or a signal may take to show its effect: the issue's bound, stretched only
    /// under a sanitizer (`BIBREAD_TEST_TIME_SCALE`).
    static let bound: Duration = TestTiming.duration(.seconds(1))

    /// What ends the reader, sent once the 10 MB value is on screen.
    enum Ending: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case q, controlC = "C-c", terminate = "SIGTERM", interrupt = "SIGINT", hangUp = "SIGHUP", terminalClosed = "terminal closed"
        var testDescription: String { rawValue }
    }

    @Test("j, k, l, G, g, ?, Esc, h, s each show their effect within 1 s with the 10 MB value selected")
    func keysAct() async throws {
        try await withLongValue { tmux, _ in
            try await press("j", in: tmux, until: "the details of the short reference") { Screen($0).detailsTitleKey == "short2021" }
            try await press("k", in: tmux, until: "the details of the long reference") { Screen($0).detailsTitleKey == "blob2020" }
            try await pressChangingTheScreen("l", in: tmux, expectation: "the details pane focused")
            try await press("G", in: tmux, until: "the end of the value shown, with its size") { $0.contains("10.0 MB,") && $0.contains("16 kB") }
            try await press("g", in: tmux, until: "the top of the details again") { $0.contains("A blob of base64") && !$0.contains("10.0 MB,") }
            try await press("?", in: tmux, until: "the help") { $0.contains("Show or hide this help") }
            try await press("Escape", in: tmux, until: "the help closed") { !$0.contains("Show or hide this help") && $0.contains("blob2020") }
            try await pressChangingTheScreen("h", in: tmux, expectation: "the list focused again")
            try await pressChangingTheScreen("s", in: tmux, expectation: "the list sorted by the next column")
            try await tmux.sendKeys("q")
            _ = try await tmux.waitForExit()
        }
    }

    @Test("q, Ctrl-C, SIGTERM, SIGINT, SIGHUP and a closed terminal end the reader within 1 s with the 10 MB value selected",
          arguments: Ending.allCases)
    func endings(_ ending: Ending) async throws {
        try await withLongValue { tmux, pid in
            let clock = ContinuousClock()
            let start = clock.now
            switch ending {
            case .q, .controlC: try await tmux.sendKeys(ending.rawValue)
            case .terminate: #expect(kill(pid, SIGTERM) == 0)
            case .interrupt: #expect(kill(pid, SIGINT) == 0)
            case .hangUp: #expect(kill(pid, SIGHUP) == 0)
            case .terminalClosed: await tmux.kill()
            }
            let took = try await Processes.timeToEnd(pid, since: start, limit: Self.bound * 10)
            #expect(took.map { $0 <= Self.bound } == true,
                    "bibread (pid \(pid)) \(took.map { "ended \($0)" } ?? "was still running 10 s") after \(ending) (bound \(Self.bound))")
        }
    }

    // MARK: - Helpers

    /// Presses `key` and waits at most `bound` for the screen, colours and attributes included,
    /// to change (a key whose effect is a style: the focus moving to another pane).
    func pressChangingTheScreen(_ key: String, in tmux: Tmux, expectation: String) async throws {
        let before = try await tmux.capture(escapes: true)
        try await tmux.sendKeys(key)
        try await tmux.waitUntil("\(expectation) within \(Self.bound) of \(key)", timeout: Self.bound, settled: false) { _ in
            try await tmux.capture(escapes: true) != before
        }
    }

    /// Presses `key` and waits at most `bound` for `predicate` to hold on the screen.
    func press(_ key: String, in tmux: Tmux, until expectation: String, _ predicate: (String) async throws -> Bool) async throws {
        try await tmux.sendKeys(key)
        try await tmux.waitUntil("\(expectation) within \(Self.bound) of \(key)", timeout: Self.bound, settled: false, predicate)
    }

    /// Runs `body` with the reader open at 120×40 on a library whose first reference (by
    /// author) has a 10 MB `note` without spaces, once that reference's details are on screen
    /// and the background work has finished; gives it the reader's pid.
    func withLongValue(_ body: (Tmux, Int32) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let library = sandbox.root.appendingPathComponent("long.bib")
        try Self.writeLibrary(to: library)
        let tmux = try await Tmux.start(width: 120, height: 40, command: sandbox.bibread([library.path]), in: sandbox)
        let pid = try await tmux.panePID()
        do {
            try await tmux.waitUntil("the long reference's details, with its groups counted") { text in
                let screen = Screen(text)
                return screen.detailsTitleKey == "blob2020" && text.contains("A blob of base64") && screen.statusLine.hasPrefix(" 2 of 2 · All")
                    && screen.groupCount("All") == 2
            }
            // The bound is for the key or the signal, not for competing with the search index
            // of 10 MB that the reader builds in the background at start.
            try await Processes.waitUntilIdle(pid)
            try await body(tmux, pid)
        } catch {
            await tmux.kill()
            // A reader that ignores the hang-up would run on for good (as it did before the fix).
            if Processes.isRunning(pid) { kill(pid, SIGKILL) }
            throw error
        }
        await tmux.kill()
    }

    /// Two references: `blob2020` (Aaronson, first by author) with a `note` of 10 MB of base64
    /// and no space, and `short2021`.
    static func writeLibrary(to url: URL) throws {
        var generator = SeededGenerator(seed: 26_05)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var blob = [UInt8](repeating: 0, count: 10_000_000)
        for index in blob.indices { blob[index] = alphabet[Int(generator.next() % 64)] }
        var text = Array("@misc{blob2020,\n  author = {Aaronson, Ada},\n  title = {A blob of base64},\n  year = {2020},\n  note = {".utf8)
        text += blob
        text += Array("}\n}\n\n@misc{short2021,\n  author = {Zeller, Zoe},\n  title = {A short one},\n  year = {2021}\n}\n".utf8)
        try Data(text).write(to: url)
    }
}
