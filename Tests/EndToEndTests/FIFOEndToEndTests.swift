import BibreadTestSupport
import Foundation
import Testing

/// Files that are FIFOs, in the real reader (issue 26, item 6): a linked PDF that is a FIFO left
/// the reader at "Opening…", and every PDF after it too, until a restart; a default library that
/// is a FIFO gave a blank screen that `q` did not leave.
@Suite("FIFOs in the reader, end to end (tmux)", .onOwnThreads)
struct FIFOEndToEndTests {
    @Test("A linked PDF that is a FIFO is refused with a message; the next PDF opens")
    func aFIFOPDFIsRefusedAndTheNextOpens() async throws {
        let helper = ReaderEndToEndTests()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let folder = sandbox.root.appendingPathComponent("papers")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("pipe.pdf")
        try FIFO.make(at: fifo)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf"),
                                         to: folder.appendingPathComponent("paper.pdf"))
        let library = folder.appendingPathComponent("library.bib")
        try """
            @misc{pipe2020, author = {Aaronson, Ada}, title = {A pipe}, year = {2020}, file = {:pipe.pdf:PDF}}
            @misc{paper2021, author = {Zeller, Zoe}, title = {A paper}, year = {2021}, file = {:paper.pdf:PDF}}
            """.write(to: library, atomically: true, encoding: .utf8)
        let tmux = try await Tmux.start(width: 120, height: 40, command: sandbox.bibread([library.path]), in: sandbox)
        do {
            try await tmux.waitUntil("the list with pipe2020 selected") { text in
                Screen(text).detailsTitleKey == "pipe2020" && Screen(text).statusLine.hasPrefix(" 2 of 2 · All")
            }
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("\(fifo.path): not a regular file (a FIFO)")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("2 of 2")
            try await tmux.sendKeys("j")
            try await helper.waitForDetails(of: "paper2021", in: tmux)
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("p. 1 / 11")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("2 of 2")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
    }

    @Test("A default library that is a FIFO: bibread says so and ends, giving the shell back")
    func aDefaultLibraryThatIsAFIFO() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.shell() }) { tmux, sandbox in
            let fifo = sandbox.root.appendingPathComponent("library.bib")
            try FIFO.make(at: fifo)
            let config = sandbox.config.appendingPathComponent("bibread")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try "library = \"\(fifo.path)\"\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            try await helper.waitForPrompt(in: tmux)
            try await tmux.type("'\(ProcessRunner.bibreadExecutable.path)'; echo status-$?")
            try await tmux.sendKeys("Enter")
            let screen = try await tmux.waitFor("status-2")
            #expect(screen.contains("bibread: \(fifo.path): not a regular file (a FIFO)"), "\(screen)")
        }
    }
}
