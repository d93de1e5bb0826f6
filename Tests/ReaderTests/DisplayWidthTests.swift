import Reader
import ReaderCore
import Testing

@Suite("display width")
struct DisplayWidthTests {
    static let widths: [(String, Int)] = [
        ("Knuth", 5), ("Gödel", 5), ("Go\u{0308}del", 5), ("山田太郎", 8), ("日本語 abc", 10),
        ("", 0), ("👍", 2), ("e\u{0301}\u{0301}", 1), ("Ｆｕｌｌ", 8), ("한국어", 6),
    ]

    @Test(arguments: widths)
    func width(_ text: String, _ expected: Int) {
        #expect(DisplayWidth.of(text) == expected)
    }

    static let truncations: [(String, Int, String)] = [
        ("Knuth", 10, "Knuth"), ("Knuth", 5, "Knuth"), ("Knuth", 4, "Knu…"),
        ("山田太郎", 5, "山田…"), ("山田太郎", 4, "山…"), ("Gödel", 3, "Gö…"), ("abc", 0, ""),
    ]

    @Test(arguments: truncations)
    func truncate(_ text: String, _ width: Int, _ expected: String) {
        let cut = DisplayWidth.truncate(text, to: width)
        #expect(cut == expected)
        #expect(DisplayWidth.of(cut) <= width)
    }

    @Test func padFillsToTheExactWidth() {
        #expect(DisplayWidth.pad("山田", to: 6) == "山田  ")
        #expect(DisplayWidth.of(DisplayWidth.pad("山田太郎山田", to: 7)) == 7)
    }

    @Test func wrapBreaksAtSpacesAndCutsLongWords() {
        #expect(DisplayWidth.wrap("one two three four", to: 9) == ["one two", "three", "four"])
        #expect(DisplayWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("", to: 4) == [""])
    }
}
