import BibModel
import BibreadTestSupport
import Foundation
import FullText
import Testing
@testable import Reader
@testable import ReaderCore

/// Full-text search in the reader: the sample PDFs indexed into a test's own index, then
/// `text:` terms typed in the search bar, with real poppler extraction and SQLite FTS5.
@Suite("full-text search in the reader")
struct FullTextReaderTests {
    @Test func textTermsFindTheReferenceShowThePageAndOpenThere() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 40, fullTextURL: folder.appendingPathComponent("fulltext.sqlite"))
        #expect(harness.state.indexing == nil, "indexing finished")
        #expect(harness.state.message == nil, "indexing in the background says nothing when it goes well")
        harness.press("/")
        harness.type(#"text:"theorem-printing program""#)
        harness.press("Enter")
        let keys = harness.state.visible.map { harness.state.library!.entries[$0].key }
        #expect(keys == ["goedel1931formal"])
        let pages = try #require(harness.state.fullText?.pages[harness.state.visible[0]])
        #expect(pages.first?.page == 3)
        #expect(harness.screen.contains("In the PDF"))
        #expect(harness.screen.contains("p. 3: "))
        // Highlighted in the snippet.
        let highlighted = harness.state.render().cells.filter { $0.style.role == .searchMatch }.map(\.text).joined()
        #expect(highlighted.lowercased().contains("program"))

        harness.press("Enter")
        #expect(harness.state.reading?.page == 3)
        #expect(harness.state.reading?.search == "theorem-printing program" || harness.state.reading?.search == "theorem printing program")
    }

    @Test func textTermsCombineWithFieldTerms() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 40, fullTextURL: folder.appendingPathComponent("fulltext.sqlite"))
        harness.press("/")
        harness.type("text:the author:knuth")
        let keys = Set(harness.state.visible.map { harness.state.library!.entries[$0].key })
        #expect(!keys.isEmpty)
        #expect(keys.allSatisfy { $0.hasPrefix("knuth") })
        harness.press("C-u")
        harness.type("text:zzyzxnotaword")
        #expect(harness.state.visible.isEmpty)
    }

    /// The reader's background indexer shares the index with every library: opening the
    /// sample library keeps the PDFs another library indexed (it used to drop every PDF the
    /// library open does not link).
    @Test func theBackgroundIndexerKeepsAnotherLibrarysPDFs() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("fulltext.sqlite")
        let other = folder.appendingPathComponent("other.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path, toPath: other)
        #expect(try FullTextIndex(url: url).update(paths: [other]).read == 1)
        let harness = ReaderHarness.samples(width: 120, height: 40, fullTextURL: url)
        #expect(harness.state.indexing == nil, "indexing finished")
        let index = try FullTextIndex(url: url)
        #expect(try index.isIndexed(path: other), "the reader's indexer dropped another library's PDF")
        #expect(try index.isIndexed(path: Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf").path))
    }
}
