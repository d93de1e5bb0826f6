@testable import FullText
import Testing

@Suite("FTS5 match expressions")
struct MatchExpressionTests {
    @Test func wordsArePrefixesAndedTogether() {
        #expect(MatchExpression.make(words: ["Dynam", "Prog"], phrase: false) == "\"dynam\"* AND \"prog\"*")
    }

    @Test func aPhraseIsOneStringWithItsLastWordAPrefix() {
        #expect(MatchExpression.make(words: ["dynamic programming"], phrase: true) == "\"dynamic programming\"*")
        #expect(MatchExpression.make(words: ["dynamic", "Programming"], phrase: true) == "\"dynamic programming\"*")
    }

    @Test("FTS5 syntax in the words stays plain words", arguments: [
        (["NEAR(a b)"], "\"near\"* AND \"a\"* AND \"b\"*"),
        (["AND"], "\"and\"*"),
        (["a*", "\"b"], "\"a\"* AND \"b\"*"),
        (["^start", "text:word", "-not", "{col}"], "\"start\"* AND \"text\"* AND \"word\"* AND \"not\"* AND \"col\"*"),
    ])
    func injection(words: [String], expected: String) {
        #expect(MatchExpression.make(words: words, phrase: false) == expected)
    }

    @Test func wordsWithoutLettersGiveNoExpression() {
        #expect(MatchExpression.make(words: ["++", "\"", "*"], phrase: false) == nil)
        #expect(MatchExpression.make(words: [], phrase: true) == nil)
    }
}
