import BibreadTestSupport
import Foundation
import Testing

/// Links and "open with", end to end: `bibread open LINK` in tmux opens the reader at the
/// linked page, `o` runs a stand-in PDF viewer at that page, and `y` puts the link on the
/// clipboard through the OSC 52 sequence, which tmux (set-clipboard on) turns into a buffer.
@Suite("Links and open with, end to end (tmux)", .onOwnThreads)
struct LinkEndToEndTests {
    @Test("bibread open LINK lands on the page; o runs the viewer there; y copies the link")
    func openAtThePageThenOpenWithAndCopy() async throws {
        let library = SampleLibrary.path
        let helper = ReaderEndToEndTests()
        let bin = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        let record = bin.appendingPathComponent("zathura.args")
        let viewer = bin.appendingPathComponent("zathura")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(record.path)'\n".write(to: viewer, atomically: true, encoding: .utf8)
        chmod(viewer.path, 0o755)
        let link = "bibread://open?refs=[goedel1931formal:5],[knuth1984texbook]&library=library.bib"
        try await helper.withSession(command: {
            $0.bibread(["open", link, "--library", library], environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
        }) { tmux, _ in
            try await tmux.run(["set-option", "-s", "set-clipboard", "on"])
            try await tmux.waitFor("p. 5 / 11", "1 of 2 linked references")
            try await tmux.sendKeys("o")
            try await tmux.waitFor("Open goedel1931formal p. 5 with", "Zathura")
            try await tmux.sendKeys("1")
            try await tmux.waitFor("Opened with Zathura")
            // The viewer is started detached: wait for its record.
            var arguments: [String] = []
            for _ in 0..<50 where arguments.isEmpty {
                arguments = ((try? String(contentsOf: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
                if arguments.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(arguments == ["--page=5", Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path])

            try await tmux.sendKeys("y")
            try await tmux.waitFor("Copied the link")
            let buffer = try await tmux.run(["show-buffer"])
            #expect(buffer == "bibread://open?refs=[goedel1931formal:5]&library=library.bib")

            // The list shows the link's references.
            try await tmux.sendKeys("q")
            try await tmux.waitFor("From link          2", "2 of 25 · From link")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("Listening: espeak-ng gets the page's text on its standard input, and Esc stops it")
    func readAloudAndStop() async throws {
        let library = SampleLibrary.path
        let helper = ReaderEndToEndTests()
        let bin = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        let heard = bin.appendingPathComponent("heard.txt")
        let speaker = bin.appendingPathComponent("espeak-ng")
        let pidFile = bin.appendingPathComponent("speaker.pid")
        try "#!/bin/sh\necho $$ > '\(pidFile.path)'\n/bin/cat > '\(heard.path)'\nexec /bin/sleep 30\n".write(to: speaker, atomically: true, encoding: .utf8)
        chmod(speaker.path, 0o755)
        try await helper.withSession(command: {
            $0.bibread(["open", "goedel1931formal:2", "--library", library], environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
        }) { tmux, _ in
            try await tmux.waitFor("p. 2 / 11")
            try await tmux.sendKeys("o", "Tab", "Tab", "Tab", "Tab")
            try await tmux.waitFor("with — Listen", "Read the page aloud")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("Reading aloud with Read the page aloud (espeak-ng) · Esc stops")
            var text = ""
            for _ in 0..<50 where text.isEmpty {
                text = (try? String(contentsOf: heard, encoding: .utf8)) ?? ""
                if text.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(text.contains("Formal systems as programs") || text.count > 200, "the page's text: \(text.prefix(200))")
            let pid = try #require(Int32((try String(contentsOf: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(Processes.isRunning(pid))
            try await tmux.sendKeys("Escape")
            try await tmux.waitFor("Stopped reading aloud", "p. 2 / 11")
            #expect(!Processes.isRunning(pid), "Esc stops the reader-aloud")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("A citation opens the printed page (p. 153 of an article printed 151–161 is its 3rd); :#1 the first of the file; past the end says so")
    func aCitationOpensThePrintedPage() async throws {
        let helper = ReaderEndToEndTests()
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let article = folder.appendingPathComponent("article.pdf")
        try LabelledPDF.write(pageCount: 11, ranges: [.init(firstPage: 1, start: 151)], to: article)
        let onePage = folder.appendingPathComponent("one.pdf")
        try LabelledPDF.write(pageCount: 1, ranges: [], to: onePage)
        let bib = folder.appendingPathComponent("articles.bib")
        try """
            @article{art, title = {An article}, pages = {151--161}, file = {:\(article.path):PDF}}
            @article{Key, title = {One page}, file = {:\(onePage.path):PDF}}
            """.write(to: bib, atomically: true, encoding: .utf8)
        try await helper.withSession(command: { $0.bibread(["open", "[@art, p. 153]", "--library", bib.path]) }) { tmux, _ in
            try await tmux.waitFor("p. 153 (3 of 11) · 27% · An article", "Page 3 of the file")
            try await tmux.sendKeys(":")
            try await tmux.type("#1")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("p. 151 (1 of 11)", "Page 1 of the file")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
        try await helper.withSession(command: { $0.bibread(["open", "[@Key, p. 3]", "--library", bib.path]) }) { tmux, _ in
            try await tmux.waitFor("p. 3 is past the end of the PDF (1 page)", "p. 1 / 1 · 100% · One page")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("The group From link lasts one session: the next plain start shows All, not an empty From link")
    func theLinkGroupIsNotRestoredNextTime() async throws {
        let library = SampleLibrary.path
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: {
            $0.bibread(["open", "[@goedel1931formal, p. 3]", "--library", library])
        }) { tmux, sandbox in
            try await tmux.waitFor("Über formal unentscheidbare")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("1 of 25 · From link")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)

            // A plain start opens the library opened last, in its last group: never From link.
            try await helper.withNextSession(in: sandbox, command: sandbox.bibread([])) { next in
                // The groups pane read once it has its rows (the list can show its 25 a frame
                // earlier), so that the absence of From link is not the absence of every group.
                let screen = try await next.waitUntil("25 of 25 · All, with the groups pane's rows") { text in
                    text.contains("25 of 25 · All") && Screen(text).groupCount("All") == 25
                }
                #expect(!screen.contains("From link"), "\(screen)")
                try await next.sendKeys("q")
                try await helper.expectCleanExit(next)
            }
        }
    }
}
