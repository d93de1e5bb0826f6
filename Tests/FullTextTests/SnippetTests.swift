@testable import FullText
import Testing

@Suite("snippets")
struct SnippetTests {
    @Test func markersBecomeRangesAndWhitespaceOneSpace() {
        let snippet = Snippet(marked: "…the \u{E000}dynamic\u{E001}\n  programming of \u{E000}Gödel\u{E001}'s…")
        #expect(snippet.text == "…the dynamic programming of Gödel's…")
        #expect(snippet.matchedTexts == ["dynamic", "Gödel"])
    }

    @Test func aPhraseMatchSpansItsWords() {
        let snippet = Snippet(marked: "a \u{E000}dynamic\nprogramming\u{E001} approach")
        #expect(snippet.text == "a dynamic programming approach")
        #expect(snippet.matchedTexts == ["dynamic programming"])
    }

    @Test func aMatchAtTheStartOrAfterALineBreak() {
        let snippet = Snippet(marked: "\u{E000}Word\u{E001}\n\u{E000}two\u{E001}")
        #expect(snippet.text == "Word two")
        #expect(snippet.matchedTexts == ["Word", "two"])
    }

    @Test func noMarkersNoMatches() {
        let snippet = Snippet(marked: "  plain\ttext  ")
        #expect(snippet.text == "plain text")
        #expect(snippet.matches.isEmpty)
    }
}

@Suite("snippets of tables of contents")
struct SnippetLeaderTests {
    @Test func dotLeadersBecomeOneEllipsis() {
        let snippet = Snippet(marked: "13 \u{E000}Packages\u{E001} . . . . . . . . . . 83\n14 Standard . . . . .85 e.g. a...b")
        #expect(snippet.text == "13 Packages … 83 14 Standard …85 e.g. a...b")
        #expect(snippet.matchedTexts == ["Packages"])
    }
}
