import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader

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
}
