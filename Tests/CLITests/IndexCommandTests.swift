import BibreadTestSupport
import Foundation
import Testing

/// `bibread index` and `list --search text:…`, run as a user runs them, on the sample PDFs.
@Suite("bibread index and text: search")
struct IndexCommandTests {
    typealias Setup = IsolatedHome

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
        let (folder, bib) = try indexedLibraryOfOnePDF(in: setup)
        let found = try setup.bibread(["list", bib.path, "--search", "text:theorem"])
        #expect(found.standardOutput.hasPrefix("goedel"))

        try FileManager.default.removeItem(at: folder.appendingPathComponent("goedel.pdf"))
        let purged = try setup.bibread(["index", bib.path])
        #expect(purged.standardError.contains("1 gone"), "\(purged.standardError)")
        let gone = try setup.bibread(["list", bib.path, "--search", "text:theorem"])
        #expect(gone.standardOutput.isEmpty)
    }

    /// The index is one file for every library: indexing library A keeps the PDFs of library B
    /// (B's `text:` search still finds them, and B's next index reads nothing). A PDF leaves the
    /// index when the last library that links it stops linking it, or on `index --prune`, which
    /// drops what no known library links any more (a library that is gone links nothing).
    @Test func indexingOneLibraryKeepsTheOthersPDFs() throws {
        let setup = try Setup()
        let folder = setup.root.appendingPathComponent("libs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["incompleteness.pdf", "tex-tour.pdf", "shortest-paths.pdf"] {
            try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/\(name)"), to: folder.appendingPathComponent(name))
        }
        let a = folder.appendingPathComponent("a.bib")
        let b = folder.appendingPathComponent("b.bib")
        try "@book{texbook, title = {TeX}, file = {tex-tour.pdf}}\n".write(to: a, atomically: true, encoding: .utf8)
        try """
            @article{goedel, title = {Incompleteness}, file = {incompleteness.pdf}}
            @article{dijkstra, title = {Paths}, file = {shortest-paths.pdf}}
            @book{texbook, title = {TeX}, file = {tex-tour.pdf}}

            """.write(to: b, atomically: true, encoding: .utf8)
        #expect(try setup.bibread(["index", b.path]).status == 0)
        let indexA = try setup.bibread(["index", a.path])
        #expect(indexA.status == 0, "\(indexA.standardError)")
        #expect(indexA.standardError.contains("Indexed 1 PDFs: 0 read (0 pages), 1 unchanged in"), "\(indexA.standardError)")
        let searchB = try setup.bibread(["list", b.path, "--search", "text:theorem"])
        #expect(searchB.standardOutput.hasPrefix("goedel"), "indexing a.bib dropped b.bib's PDFs: \(searchB.standardOutput)")
        let againB = try setup.bibread(["index", b.path])
        #expect(againB.standardError.contains("Indexed 3 PDFs: 0 read (0 pages), 3 unchanged in"), "\(againB.standardError)")

        // B stops linking two PDFs; A still links one of them: only the other leaves.
        try "@book{texbook, title = {TeX}, file = {tex-tour.pdf}}\n".write(to: b, atomically: true, encoding: .utf8)
        let shrunk = try setup.bibread(["index", b.path])
        #expect(shrunk.standardError.contains("2 gone"), "\(shrunk.standardError)")
        try "@article{goedel, title = {Incompleteness}, file = {incompleteness.pdf}}\n".write(to: b, atomically: true, encoding: .utf8)
        #expect(try setup.bibread(["index", b.path]).standardError.contains("1 read"))

        // A is deleted: the index keeps its PDF until a prune.
        try FileManager.default.removeItem(at: a)
        let c = folder.appendingPathComponent("c.bib")
        try "@book{texbook, title = {TeX}, file = {tex-tour.pdf}}\n".write(to: c, atomically: true, encoding: .utf8)
        let prune = try setup.bibread(["index", "--prune"])
        #expect(prune.status == 0, "\(prune.standardError)")
        #expect(prune.standardError.contains("Pruned the full-text index: 1 PDF no library links"), "\(prune.standardError)")
        let searchC = try setup.bibread(["index", c.path])
        #expect(searchC.standardError.contains("1 read"), "the pruned PDF is read again: \(searchC.standardError)")
        let stillB = try setup.bibread(["list", b.path, "--search", "text:theorem"])
        #expect(stillB.standardOutput.hasPrefix("goedel"), "\(stillB.standardOutput)")
    }

    /// A synced remote's library links its PDFs in the cache: a prune keeps them.
    @Test func aPruneKeepsTheCachedPDFsOfASyncedLibrary() throws {
        let setup = try Setup()
        let remote = setup.root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("library.bib"), to: remote.appendingPathComponent("library.bib"))
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers"), to: remote.appendingPathComponent("papers"))
        let sync = try setup.bibread(["sync", remote.path, "--name", "lab", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let index = try setup.bibread(["index", "lab"])
        #expect(index.standardError.contains("Indexed 2 PDFs: 2 read"), "\(index.standardError)")
        let prune = try setup.bibread(["index", "--prune"])
        #expect(prune.standardError.contains("Pruned the full-text index: 0 PDFs no library links"), "\(prune.standardError)")
        let again = try setup.bibread(["index", "lab"])
        #expect(again.standardError.contains("Indexed 2 PDFs: 0 read (0 pages), 2 unchanged in"), "\(again.standardError)")
    }

    /// A library emptied of its entries links nothing: a prune drops its PDFs (a library that
    /// cannot be read at all keeps them).
    @Test func aPruneDropsThePDFsOfAnEmptiedLibrary() throws {
        let setup = try Setup()
        let (_, bib) = try indexedLibraryOfOnePDF(in: setup)
        try "% nothing here any more\n".write(to: bib, atomically: true, encoding: .utf8)
        let prune = try setup.bibread(["index", "--prune"])
        #expect(prune.status == 0, "\(prune.standardError)")
        #expect(prune.standardError.contains("Pruned the full-text index: 1 PDF no library links"), "\(prune.standardError)")
    }

    /// `lib/lib.bib`, whose one reference links `lib/goedel.pdf` (the sample incompleteness
    /// paper), indexed; its folder and .bib.
    private func indexedLibraryOfOnePDF(in setup: Setup) throws -> (folder: URL, bib: URL) {
        let folder = setup.root.appendingPathComponent("lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf"),
                                         to: folder.appendingPathComponent("goedel.pdf"))
        let bib = folder.appendingPathComponent("lib.bib")
        try "@article{goedel, title = {Incompleteness}, file = {goedel.pdf}}\n".write(to: bib, atomically: true, encoding: .utf8)
        #expect(try setup.bibread(["index", bib.path]).status == 0)
        return (folder, bib)
    }
}
