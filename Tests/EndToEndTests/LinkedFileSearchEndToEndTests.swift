import BibreadTestSupport
import Foundation
import Testing

/// The reader opens a library written on a Mac (links to `/Users/jane/…`) whose PDFs are laid
/// out differently here: the file found by its name opens, and the reader says which file it
/// opened; the file the config's path mapping points at opens too.
@Suite("Linked files of another machine, end to end (tmux)", .onOwnThreads)
struct LinkedFileSearchEndToEndTests {
    @Test("A PDF linked at a Mac's path opens from the file of the same name here, and the reader says so")
    func opensTheFileFoundByName() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            let papers = sandbox.home.appendingPathComponent("Papers")
            let books = sandbox.home.appendingPathComponent("Books")
            let samples = Fixtures.samples.appendingPathComponent("papers")
            for (source, target) in [("tex-tour.pdf", papers.appendingPathComponent("sub/knuth84.pdf")),
                                     ("incompleteness.pdf", books.appendingPathComponent("goedel.pdf"))] {
                try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try? FileManager.default.copyItem(at: samples.appendingPathComponent(source), to: target)
            }
            try? Data("""
            @article{knuth84, author = {Knuth, D.}, title = {A Tour of TeX}, file = {:/Users/jane/Papers/knuth84.pdf:PDF}}
            @article{goedel31, author = {Gödel, K.}, title = {Formally undecidable}, file = {:/Users/jane/Documents/Books/goedel.pdf:PDF}}

            """.utf8).write(to: papers.appendingPathComponent("library.bib"))
            let config = sandbox.config.appendingPathComponent("bibread")
            try? FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try? Data("""
            [[library]]
            path = "~/Papers/library.bib"
            [library.path_mapping]
            "/Users/jane/Documents/Books" = "~/Books"

            """.utf8).write(to: config.appendingPathComponent("config.toml"))
            // No file named: the configured library opens.
            return sandbox.bibread([])
        }) { tmux, sandbox in
            let found = sandbox.home.appendingPathComponent("Papers/sub/knuth84.pdf").path
            try await tmux.waitFor("2 of 2")
            // The list is sorted by author: Gödel, then Knuth.
            try await tmux.sendKeys("j")
            try await tmux.waitFor("found by name", "not there; using")
            try await tmux.sendKeys("Enter")
            // tex-tour.pdf has 5 pages; the reader says which file it opened.
            try await tmux.waitFor("(1 of 5)", "Opened the file of the same name: ")
            let screen = try await tmux.capture()
            #expect(screen.contains("TeX") || screen.contains("Origins"), "the text of the PDF found: \(screen)")
            #expect(screen.replacingOccurrences(of: "\n", with: "").contains(String(found.suffix(20))), "names \(found): \(screen)")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("2 of 2")
            // Through the mapping: Gödel's PDF, 11 pages.
            try await tmux.sendKeys("k")
            try await tmux.waitFor("Formally undecidable")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("/ 11")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("2 of 2")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
