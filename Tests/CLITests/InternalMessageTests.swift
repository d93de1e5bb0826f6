import BibreadTestSupport
import Foundation
import Testing

/// Messages say what is wrong in words, not bibread's internals (issue 26, item 13): a damaged
/// store was reported with the SQL statement that failed ("SQLite error 26: file is not a
/// database - while executing `PRAGMA journal_mode = WAL`").
@Suite("Messages without internals")
struct InternalMessageTests {
    @Test func aDamagedStoreIsReportedWithoutBibreadsSQL() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = Fixtures.isolatedEnvironment(under: root)
        for folder in ["state/bibread", "cache/bibread"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let garbage = Data(String(repeating: "not a database ", count: 100).utf8)
        let state = root.appendingPathComponent("state/bibread/state.sqlite")
        let index = root.appendingPathComponent("cache/bibread/fulltext.sqlite")
        try garbage.write(to: state)
        try garbage.write(to: index)
        let library = Fixtures.samples.appendingPathComponent("library.bib").path
        let bookmarks = try ProcessRunner.bibread(["bookmarks", "list"], environment: environment)
        #expect(bookmarks.standardError == "bibread: cannot open the bookmark store in \(state.deletingLastPathComponent().path): file is not a database (SQLite error 26)\n",
                "\(bookmarks.standardError)")
        let indexing = try ProcessRunner.bibread(["index", library], environment: environment)
        #expect(indexing.standardError == "bibread: cannot open the full-text index \(index.path): file is not a database (SQLite error 26)\n",
                "\(indexing.standardError)")
    }
}
