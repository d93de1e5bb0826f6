@testable import FullText
import Testing

@Suite("page text before indexing")
struct PageTextNormalizerTests {
    @Test("a word hyphenated across a line end is joined", arguments: [
        ("a dyna-\nmic program", "a dynamic program"),
        ("a dyna-  \n   mic program", "a dynamic program"),
        ("a dyna-\r\nmic program", "a dynamic program"),
        ("a dyna\u{2010}\nmic program", "a dynamic program"),
        ("Gö-\ndel", "Gödel"),
    ])
    func joinsHyphenatedWords(input: String, expected: String) {
        #expect(PageTextNormalizer.normalize(input) == expected)
    }

    @Test("the hyphen stays before a capital or a digit, and in a compound", arguments: [
        ("the Hilbert-\nSchmidt norm", "the Hilbert-Schmidt norm"),
        ("ISO-\n9001 rules", "ISO-9001 rules"),
        ("state-of-the-\nart methods", "state-of-the-art methods"),
    ])
    func keepsRealHyphens(input: String, expected: String) {
        #expect(PageTextNormalizer.normalize(input) == expected)
    }

    @Test("hyphens inside a line, dashes and ranges are left alone", arguments: [
        "a well-known fact\nnext line",
        "items:\n-\nfirst",
        "pages 10-\n20",
        "a list -\nitem",
        "ends with a hyphen-",
        "hyphen-\n\nparagraph",
    ])
    func leavesOtherHyphens(input: String) {
        #expect(PageTextNormalizer.normalize(input) == input)
    }

    @Test func dropsSoftHyphens() {
        #expect(PageTextNormalizer.normalize("hy\u{00AD}phen\u{00AD}ation") == "hyphenation")
        #expect(PageTextNormalizer.normalize("hyphen\u{00AD}\nation and Hilbert\u{00AD}\nSchmidt") == "hyphenation and HilbertSchmidt")
    }

    @Test func expandsLigatures() {
        #expect(PageTextNormalizer.normalize("\u{FB01}nd the \u{FB02}ow, e\u{FB03}cient, o\u{FB00} and wa\u{FB04}e") ==
                "find the flow, efficient, off and waffle")
    }

    @Test func keepsLineBreaksAndOtherText() {
        let text = "Line one.\nLine two — with ü and 日本語.\n"
        #expect(PageTextNormalizer.normalize(text) == text)
    }
}
