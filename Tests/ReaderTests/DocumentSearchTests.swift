import BibModel
import BibreadTestSupport
import Foundation
import PDFText
import Testing
@testable import Reader
@testable import ReaderCore

/// `/` then `>`/`<` in the reading view, on a real manual of the corpora: every page that holds
/// the word is reached in order, the search wraps round as vim's does, and the status line says
/// what happened.
@Suite("searching in a document")
struct DocumentSearchTests {
    static let manual = Fixtures.corpus("pdfs/R-intro.pdf")

    /// The reader on the manual, opened at its first page.
    static func harness(width: Int = 100, height: Int = 30) -> ReaderHarness {
        let library = Fixtures.library("@manual{rintro, title = {An Introduction to R}, file = {:\(manual.path):PDF}}")
        var harness = ReaderHarness(library: library, width: width, height: height)
        harness.press("Enter")
        return harness
    }

    /// The pages whose text holds `word`, as the reading view shows them (reflowed).
    static func pages(holding word: String, width: Int = 100, height: Int = 30) throws -> [Int] {
        let document = try PDFDocument(path: manual.path)
        let state = AppState(library: nil, paths: [], width: width, height: height)
        return try (1...document.pageCount).filter { page in
            var view = ReadingState(path: manual.path, address: "rintro", title: "")
            view.pageText = try document.text(ofPage: page)
            return state.readingLines(view).contains { !ReadingText.matches(of: word, in: $0).isEmpty }
        }
    }

    /// Presses `key` until the search wraps (or `limit` presses), noting the page after each.
    static func step(_ harness: inout ReaderHarness, _ key: String, limit: Int) -> (pages: [Int], wrappedAt: Int?) {
        var pages: [Int] = []
        for press in 0..<limit {
            harness.press(key)
            if harness.state.message?.text.lowercased().contains("wrapped") == true { return (pages, press) }
            pages.append(harness.state.reading?.page ?? 0)
        }
        return (pages, nil)
    }

    @Test func nextMatchReachesEveryPageThatHoldsTheWordThenWraps() throws {
        let word = "temporary"
        let expected = try Self.pages(holding: word)
        try #require(expected.count >= 4, "the manual should hold '\(word)' on several pages: \(expected)")
        var harness = Self.harness()
        harness.press("/")
        harness.type(word)
        harness.press("Enter")
        #expect(harness.state.reading?.page == expected.first)
        // The match is shown: the status line no longer says it is searching.
        #expect(harness.state.message?.text.contains("Searching") != true, "\(String(describing: harness.state.message))")
        #expect(!harness.screen.contains("Searching"))
        let (visited, wrappedAt) = Self.step(&harness, ">", limit: 80)
        // Each press moves on; the pages come in order, none skipped, and the search then wraps.
        var seen: [Int] = []
        for page in [expected[0]] + visited where seen.last != page { seen.append(page) }
        #expect(seen == expected, "visited \(visited)")
        #expect(wrappedAt != nil, "never wrapped: visited \(visited)")
        #expect(harness.state.message?.text == "Search wrapped to the first page")
        #expect(harness.state.reading?.page == expected.first)
        let highlighted = harness.state.render().cells.filter { $0.style.role == .searchMatch }.map(\.text).joined()
        #expect(highlighted.lowercased().contains(word))
    }

    @Test func previousMatchWalksBackAndWrapsToTheLastPage() throws {
        let word = "temporary"
        let expected = try Self.pages(holding: word)
        var harness = Self.harness()
        harness.press("/")
        harness.type(word)
        harness.press("Enter")
        let (visited, wrappedAt) = Self.step(&harness, "<", limit: 80)
        #expect(wrappedAt == 0, "the first < from the first match wraps: \(visited)")
        #expect(harness.state.message?.text == "Search wrapped to the last page")
        #expect(harness.state.reading?.page == expected.last)
        let (back, _) = Self.step(&harness, "<", limit: 80)
        var seen: [Int] = [expected.last ?? 0]
        for page in back where seen.last != page { seen.append(page) }
        #expect(seen == expected.reversed(), "visited \(back)")
    }

    @Test func aMatchAtThePageBottomDoesNotStopNextMatch() throws {
        // A page whose only match sits low on a short screen: `>` used to land on it again and again.
        let word = "temporary"
        let expected = try Self.pages(holding: word, width: 100, height: 12)
        var harness = Self.harness(width: 100, height: 12)
        harness.press("/")
        harness.type(word)
        harness.press("Enter")
        let (visited, _) = Self.step(&harness, ">", limit: 60)
        var seen: [Int] = [expected[0]]
        for page in visited where seen.last != page { seen.append(page) }
        #expect(seen == expected, "visited \(visited)")
    }

    @Test func aWordNowhereInTheDocumentSaysSo() throws {
        var harness = Self.harness()
        harness.press("/")
        harness.type("no such words anywhere")
        harness.press("Enter")
        #expect(harness.state.message?.text == "'no such words anywhere' is not in this document")
        #expect(harness.state.message?.isError == true)
        #expect(harness.state.reading?.page == 1)
    }
}
