import BibreadTestSupport
import Foundation
import Testing

/// `bibread index` and `list --search text:…`, run as a user runs them, on the sample PDFs.
@Suite("bibread index and text: search")
struct IndexCommandTests {
    final class Setup {
        let root: URL
        let environment: [String: String]

        init() throws {
            root = try Fixtures.temporaryDirectory()
            environment = ["HOME": root.path, "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                           "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": root.appendingPathComponent("state").path,
                           "XDG_DATA_HOME": root.appendingPathComponent("data").path]
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func bibread(_ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.bibread(arguments, environment: environment)
        }
    }

    @Test func indexOnceThenSearchInsideThePapers() throws {
        let setup = try Setup()
        let library = Fixtures.samples.appendingPathComponent("library.bib").path
        let before = try setup.bibread(["list", library, "--search", "text:theorem"])
        #expect(before.standardError.contains("no full-text index yet"))

        let first = try setup.bibread(["index", library])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardError.contains("Indexed 5 PDFs: 5 read ("))
        #expect(FileManager.default.fileExists(atPath: setup.root.appendingPathComponent("cache/bibread/fulltext.sqlite").path))

        let again = try setup.bibread(["index", library])
        #expect(again.standardError.contains("Indexed 5 PDFs: 0 read (0 pages), 5 unchanged"), "\(again.standardError)")

        let found = try setup.bibread(["list", library, "--search", #"text:"theorem-printing program""#, "--json"])
        #expect(found.status == 0, "\(found.standardError)")
        let references = try #require(try JSONSerialization.jsonObject(with: Data(found.standardOutput.utf8)) as? [[String: Any]])
        #expect(references.map { $0["key"] as? String } == ["goedel1931formal"])
        let pages = try #require(references.first?["fulltext"] as? [[String: Any]])
        #expect(pages.first?["page"] as? Int == 3)
        #expect((pages.first?["snippet"] as? String)?.lowercased().contains("program") == true)

        let combined = try setup.bibread(["list", library, "--search", "text:theorem -author:gödel", "--json"])
        let none = try #require(try JSONSerialization.jsonObject(with: Data(combined.standardOutput.utf8)) as? [[String: Any]])
        #expect(!none.contains { $0["key"] as? String == "goedel1931formal" })
    }

    @Test func aPDFThatIsGoneDropsOutOfTheResults() throws {
        let setup = try Setup()
        let folder = setup.root.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf"),
                                         to: folder.appendingPathComponent("goedel.pdf"))
        let bib = folder.appendingPathComponent("lib.bib")
        try "@article{goedel, title = {Incompleteness}, file = {goedel.pdf}}\n".write(to: bib, atomically: true, encoding: .utf8)
        #expect(try setup.bibread(["index", bib.path]).status == 0)
        let found = try setup.bibread(["list", bib.path, "--search", "text:theorem"])
        #expect(found.standardOutput.hasPrefix("goedel"))

        try FileManager.default.removeItem(at: folder.appendingPathComponent("goedel.pdf"))
        let purged = try setup.bibread(["index", bib.path])
        #expect(purged.standardError.contains("1 gone"), "\(purged.standardError)")
        let gone = try setup.bibread(["list", bib.path, "--search", "text:theorem"])
        #expect(gone.standardOutput.isEmpty)
    }
}
