import BibreadTestSupport
import Foundation
import Testing

/// A library written on a Mac (links to `/Users/jane/…`) read here through the real binary, with
/// the PDFs laid out differently under this home: `check` reports each file found by its name
/// and each name found twice, and `read` reads the file found (or says why it cannot).
@Suite("linked files of another machine: check and read")
struct LinkedFileSearchCommandTests {
    final class Setup: IsolatedHome {
        var papers: URL { root.appendingPathComponent("Papers") }
        var books: URL { root.appendingPathComponent("Books") }
        var library: URL { papers.appendingPathComponent("library.bib") }

        /// The library's text: `@article{KEY,` is on line 1 + 4 × its index, `file` two lines below.
        static let text = """
        @article{knuth84,
          title = {A Tour of TeX},
          file = {:/Users/jane/Papers/knuth84.pdf:PDF}
        }
        @article{goedel31,
          title = {Formally undecidable},
          file = {:/Users/jane/Documents/Books/goedel.pdf:PDF}
        }
        @article{notes,
          title = {Notes},
          file = {:/Users/jane/Papers/notes.pdf:PDF}
        }
        @article{gone,
          title = {Gone},
          file = {:/Users/jane/Papers/gone.pdf:PDF}
        }

        """

        init(configured: Bool = true) throws {
            try super.init()
            let samples = Fixtures.samples.appendingPathComponent("papers")
            try put(samples.appendingPathComponent("tex-tour.pdf"), at: papers.appendingPathComponent("sub/knuth84.pdf"))
            try put(samples.appendingPathComponent("incompleteness.pdf"), at: books.appendingPathComponent("goedel.pdf"))
            try put(samples.appendingPathComponent("line-breaking.pdf"), at: papers.appendingPathComponent("2019/notes.pdf"))
            try put(samples.appendingPathComponent("line-breaking.pdf"), at: books.appendingPathComponent("notes.pdf"))
            try Data(Self.text.utf8).write(to: library)
            guard configured else { return }
            let config = root.appendingPathComponent("config/bibread")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try Data("""
            [[library]]
            path = "~/Papers/library.bib"
            [library.path_mapping]
            "/Users/jane/Documents/Books" = "~/Books"

            """.utf8).write(to: config.appendingPathComponent("config.toml"))
        }

        private func put(_ source: URL, at target: URL) throws {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: target)
        }
    }

    @Test func checkReportsEachGuessAndEachAmbiguousName() throws {
        let setup = try Setup()
        let result = try setup.bibread(["check", setup.library.path])
        #expect(result.status == 0, "warnings only: \(result.standardError)")
        let path = setup.library.path
        #expect(result.standardOutput == """
        \(path):3:3: warning: knuth84: file /Users/jane/Papers/knuth84.pdf not found; using ~/Papers/sub/knuth84.pdf (same name)
        \(path):11:3: warning: notes: file /Users/jane/Papers/notes.pdf not found; 2 files are named notes.pdf, so none is used \
        (~/Books/notes.pdf, ~/Papers/2019/notes.pdf); fix the link, or map its folder with [library.path_mapping] in config.toml

        """)
    }

    @Test func readReadsTheFileFoundByNameAndSaysSo() throws {
        let setup = try Setup()
        let found = try setup.bibread(["read", setup.library.path, "knuth84", "--page", "1", "--width", "60"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardError.contains("bibread: note: knuth84: /Users/jane/Papers/knuth84.pdf is not there; reading ~/Papers/sub/knuth84.pdf (same name)"),
                "\(found.standardError)")
        let original = try setup.bibread(["read", Fixtures.samples.appendingPathComponent("library.bib").path, "knuth1984texbook",
                                          "--page", "1", "--width", "60"])
        #expect(!original.standardOutput.isEmpty)
        #expect(found.standardOutput == original.standardOutput)

        // Through the mapping: no note, the file is where the mapping says.
        let mapped = try setup.bibread(["read", setup.library.path, "goedel31", "--page", "#4", "--width", "1000"])
        #expect(mapped.status == 0, "\(mapped.standardError)")
        #expect(mapped.standardError.isEmpty, "\(mapped.standardError)")
        let goedel = try setup.bibread(["read", Fixtures.samples.appendingPathComponent("library.bib").path, "goedel1931formal",
                                        "--page", "#4", "--width", "1000"])
        #expect(!goedel.standardOutput.isEmpty && mapped.standardOutput == goedel.standardOutput)
    }

    @Test func readSaysWhyAFileCannotBeRead() throws {
        let setup = try Setup()
        let ambiguous = try setup.bibread(["read", setup.library.path, "notes"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError == "bibread: no PDF of notes is on this machine: /Users/jane/Papers/notes.pdf "
            + "(2 files have its name, so none is read: ~/Books/notes.pdf, ~/Papers/2019/notes.pdf)\n")
        let gone = try setup.bibread(["read", setup.library.path, "gone"])
        #expect(gone.status == 1)
        #expect(gone.standardError == "bibread: no PDF of gone is on this machine: /Users/jane/Papers/gone.pdf (no file of its name under ~/Papers, ~/Books)\n")
        #expect(ambiguous.standardOutput.isEmpty && gone.standardOutput.isEmpty)
    }

    /// Without config.toml the library's own folder is still searched; the mapped folder is not.
    @Test func withoutTheMappingOnlyTheLibrarysFolderIsSearched() throws {
        let setup = try Setup(configured: false)
        let mapped = try setup.bibread(["read", setup.library.path, "goedel31"])
        #expect(mapped.status == 1)
        #expect(mapped.standardError == "bibread: no PDF of goedel31 is on this machine: /Users/jane/Documents/Books/goedel.pdf (no file of its name under ~/Papers)\n")
        let check = try setup.bibread(["check", setup.library.path])
        #expect(check.standardOutput.contains("knuth84: file /Users/jane/Papers/knuth84.pdf not found; using ~/Papers/sub/knuth84.pdf (same name)"))
        // notes.pdf is in ~/Papers once now: a guess, not ambiguous.
        #expect(check.standardOutput.contains("notes: file /Users/jane/Papers/notes.pdf not found; using ~/Papers/2019/notes.pdf (same name)"))
    }
}
