@testable import FullText
import Testing

@Suite("tokenizer: split and fold as bibread's search does")
struct FoldingTokenizerTests {
    @Test("words are folded", arguments: [
        ("Ünïcödé", ["unicode"]),
        ("Gödel's THEOREM", ["godel", "s", "theorem"]),
        ("Straße Łukasiewicz Ørsted Æther Œuvre Đuro", ["strasse", "lukasiewicz", "orsted", "aether", "oeuvre", "duro"]),
        ("\u{FB01}nd the \u{FB02}ow", ["find", "the", "flow"]),
        ("e\u{0301}cole", ["ecole"]), // a combining accent
        ("c++ o'brien x86_64 2024", ["c", "o", "brien", "x86", "64", "2024"]),
        ("日本語 テキスト", ["日本語", "テキスト"]),
        ("non\u{00A0}breaking en–dash em—dash", ["non", "breaking", "en", "dash", "em", "dash"]),
        ("\"NEAR(a b)\" AND ^x:y*", ["near", "a", "b", "and", "x", "y"]),
        ("", []),
    ])
    func folds(text: String, tokens: [String]) {
        #expect(FoldingTokenizer.tokens(of: text) == tokens)
    }

    @Test func givesTheByteRangeOfEachWordInTheOriginal() {
        let text = "Ünïcödé and Straße"
        var ranges: [String] = []
        var cache = FoldCache()
        var copy = text
        copy.withUTF8 { bytes in
            FoldingTokenizer.forEachToken(in: bytes, cache: &cache) { _, start, end in
                ranges.append(String(decoding: bytes[start..<end], as: UTF8.self))
                return true
            }
        }
        #expect(ranges == ["Ünïcödé", "and", "Straße"])
    }

    @Test func stopsWhenAsked() {
        var seen = 0
        var cache = FoldCache()
        var text = "one two three"
        text.withUTF8 { bytes in
            FoldingTokenizer.forEachToken(in: bytes, cache: &cache) { _, _, _ in
                seen += 1
                return false
            }
        }
        #expect(seen == 1)
    }
}
