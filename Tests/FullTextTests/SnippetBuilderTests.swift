@testable import FullText
import Testing

@Suite("snippets made from the page text")
struct SnippetBuilderTests {
    static let page = """
        In the first part we recall the basic definitions. Then we study the dynamic
        programming approach to shortest paths, and show that dynamic programming and
        Dijkstra's algorithm compute the same distances. Finally we discuss Gödel's work
        and some open problems of the Łukasiewicz school. The end.
        """

    @Test func marksPrefixMatchesInTheBestWindow() {
        let snippet = SnippetBuilder(words: ["DYNAM", "progr"], phrase: false, window: 12).snippet(of: Self.page)
        // The window with both words and the most matches.
        #expect(snippet.text == "…study the dynamic programming approach to shortest paths, and show that dynamic…")
        #expect(snippet.matchedTexts == ["dynamic", "programming", "dynamic"])
    }

    @Test func marksWholePhrasesOnly() {
        let snippet = SnippetBuilder(words: ["dynamic programming an"], phrase: true, window: 10).snippet(of: Self.page)
        #expect(snippet.matchedTexts == ["dynamic programming and"])
        #expect(snippet.text.contains("dynamic programming and Dijkstra's"))
    }

    @Test func foldsLikeTheIndex() {
        let snippet = SnippetBuilder(words: ["godel", "LUKASIEWICZ"], phrase: false, window: 16).snippet(of: Self.page)
        #expect(snippet.matchedTexts == ["Gödel", "Łukasiewicz"])
        #expect(snippet.text == "…distances. Finally we discuss Gödel's work and some open problems of the Łukasiewicz school. The…")
    }

    @Test func aWordWithACombiningAccentIsMarkedWhole() {
        let snippet = SnippetBuilder(words: ["ecole"], phrase: false, window: 16).snippet(of: "l'e\u{0301}cole\u{0301} normale")
        #expect(snippet.matchedTexts == ["e\u{0301}cole\u{0301}"])
        #expect(snippet.text == "l'e\u{0301}cole\u{0301} normale")
    }

    @Test func aShortPageIsWholeWithoutEllipses() {
        let snippet = SnippetBuilder(words: ["two"], phrase: false, window: 16).snippet(of: "One, two;\nthree.")
        #expect(snippet.text == "One, two; three.")
        #expect(snippet.matchedTexts == ["two"])
    }

    @Test func withoutAMatchItShowsTheStart() {
        let snippet = SnippetBuilder(words: ["absent"], phrase: false, window: 3).snippet(of: "one two three four")
        #expect(snippet.text == "one two three…")
        #expect(snippet.matches.isEmpty)
    }

    @Test func markerCharactersInThePageAreDropped() {
        let snippet = SnippetBuilder(words: ["word"], phrase: false, window: 5).snippet(of: "a \u{E000}odd\u{E001} word here")
        #expect(snippet.text == "a odd word here")
        #expect(snippet.matchedTexts == ["word"])
    }
}
