import BibModel
import Testing

@Suite("LaTeX to Unicode")
struct LaTeXTests {
    static let accents: [(String, String)] = [
        (#"G{\"o}del"#, "Gödel"), (#"G\"{o}del"#, "Gödel"), (#"G\"odel"#, "Gödel"),
        (#"Erd{\H{o}}s"#, "Erdős"), (#"Erd\H{o}s"#, "Erdős"), (#"Erd\H os"#, "Erdős"),
        (#"R{\'e}nyi"#, "Rényi"), (#"{\'\i}"#, "í"), (#"\'{\i}"#, "í"), (#"\^{\j}"#, "ĵ"),
        (#"Fran\c{c}ois"#, "François"), (#"Fran\c cois"#, "François"), (#"\v{S}koda"#, "Škoda"),
        (#"Dvo\v{r}\'ak"#, "Dvořák"), (#"\k{a}"#, "ą"), (#"\r{a}"#, "å"), (#"\u{g}"#, "ğ"),
        (#"\=a"#, "ā"), (#"\.z"#, "ż"), (#"\~n"#, "ñ"), (#"\^e"#, "ê"), (#"\`a"#, "à"),
        (#"\d{s}"#, "ṣ"), (#"\b{b}"#, "ḇ"), (#"{\"{U}}ber"#, "Über"), (#"\"{}"#, "¨"),
    ]

    static let letters: [(String, String)] = [
        (#"Stra{\ss}e"#, "Straße"), (#"\o"#, "ø"), (#"{\O}"#, "Ø"), (#"{\aa}"#, "å"), (#"\AA{}"#, "Å"),
        (#"{\ae}"#, "æ"), (#"\AE"#, "Æ"), (#"{\oe}uvre"#, "œuvre"), (#"\OE"#, "Œ"), (#"{\l}"#, "ł"),
        (#"\L{}ukasz"#, "Łukasz"), (#"\i"#, "ı"), (#"\j"#, "ȷ"), (#"\ss x"#, "ßx"),
    ]

    static let punctuation: [(String, String)] = [
        ("1--10", "1–10"), ("A---B", "A—B"), ("a~b", "a b"), (#"\&"#, "&"), (#"50\%"#, "50%"),
        (#"\$5"#, "$5"), (#"a\_b"#, "a_b"), (##"\#1"##, "#1"), ("``quoted''", "“quoted”"), ("`single'", "‘single’"),
        ("`quantum jump trajectories'", "‘quantum jump trajectories’"), ("`Knuth's book'", "‘Knuth's book’"),
        ("`a' and `b'", "‘a’ and ‘b’"), ("don't", "don't"), ("the 90' mark", "the 90' mark"), ("`{ab}'", "‘ab’"),
        (#"\{x\}"#, "{x}"), (#"a\,b"#, "a b"), ("a  \n\t b", "a b"), ("  padded  ", "padded"),
    ]

    static let commands: [(String, String)] = [
        (#"\emph{Very} good"#, "Very good"), (#"\textit{a}\textbf{b}\textsc{c}"#, "abc"),
        (#"\url{https://x.org/a_b}"#, "https://x.org/a_b"), (#"{\em emphasis}"#, "emphasis"),
        (#"\href{https://x.org}{the site}"#, "the site"), (#"The {TeX}book"#, "The TeXbook"),
        (#"\TeX{} and \LaTeX"#, "TeX and LaTeX"), (#"{\noopsort{1984}}Title"#, "Title"),
        (#"\enquote{hi}"#, "“hi”"), (#"\mbox{A B}"#, "A B"),
    ]

    static let math: [(String, String)] = [
        (#"$\alpha$-helix"#, "α-helix"), (#"$\beta$ and $\Omega$"#, "β and Ω"), ("$x^2$", "x²"),
        ("$x^{10}$", "x¹⁰"), ("$a_1$", "a₁"), (#"$O(n \log n)$"#, "O(n log n)"), (#"$\leq$"#, "≤"),
        (#"$\mathbb{R}$"#, "ℝ"), (#"$\frac{1}{2}$"#, "1/2"), (#"$\sqrt{2}$"#, "√2"), ("$x^y$", "x^y"),
        (#"$\infty$"#, "∞"),
    ]

    static let unknown: [(String, String)] = [
        (#"\emdash{}x"#, #"\emdash{}x"#), (#"\foo{bar}"#, #"\foo{bar}"#), (#"see \cite{x}"#, #"see \cite{x}"#),
        (#"\unknownsymbol"#, #"\unknownsymbol"#), (#"trailing\"#, #"trailing\"#),
    ]

    @Test(arguments: accents) func accent(_ input: String, _ expected: String) { #expect(LaTeX.decode(input) == expected) }
    @Test(arguments: letters) func specialLetter(_ input: String, _ expected: String) { #expect(LaTeX.decode(input) == expected) }
    @Test(arguments: punctuation) func punctuationAndSpacing(_ input: String, _ expected: String) { #expect(LaTeX.decode(input) == expected) }
    @Test(arguments: commands) func textCommand(_ input: String, _ expected: String) { #expect(LaTeX.decode(input) == expected) }
    @Test(arguments: math) func simpleMath(_ input: String, _ expected: String) { #expect(LaTeX.decode(input) == expected) }
    @Test(arguments: unknown) func unknownCommandsStayVisible(_ input: String, _ expected: String) { #expect(LaTeX.decode(input) == expected) }

    @Test func deeplyNestedCommandsDoNotOverflowTheStack() {
        let depth = 100_000
        let text = String(repeating: #"\emph{"#, count: depth) + "x" + String(repeating: "}", count: depth)
        #expect(LaTeX.decode(text) == "x")
        let accents = String(repeating: #"\'{"#, count: depth) + "e" + String(repeating: "}", count: depth)
        // Past the nesting limit accents lose their letter, but the text is all there and no
        // LaTeX syntax leaks out.
        let decoded = LaTeX.decode(accents)
        #expect(decoded.unicodeScalars.contains { $0 == "e" || $0 == "é" })
        #expect(!decoded.contains("{") && !decoded.contains("}") && !decoded.contains("\\"))
    }

    @Test func decodedTextIsComposed() {
        // NFC: one scalar for ö, so searching and width measuring see one character.
        #expect(LaTeX.decode(#"\"o"#).unicodeScalars.count == 1)
    }

    @Test func plainTextIsReturnedUnchanged() {
        let text = "Plain ASCII title - with a hyphen, and Ünïcödé"
        #expect(LaTeX.decode(text) == text)
    }

    static let verbatim: [(String, String)] = [
        (#"https://example.org/a--b?x=1&y=2"#, "https://example.org/a--b?x=1&y=2"),
        (#"\url{http://x.org/~me/a\_b}"#, "http://x.org/~me/a_b"),
        (#"10.1000/{ABC}\_12"#, "10.1000/ABC_12"),
        (#"http://x.org/\%7Euser"#, "http://x.org/%7Euser"),
    ]

    @Test(arguments: verbatim) func urlsAndIdentifiersAreOnlyUnescaped(_ input: String, _ expected: String) {
        #expect(LaTeX.decodeVerbatim(input) == expected)
    }

    /// `withDecodedVerbatim` gives the bytes of `decodeVerbatim`: trimmed, unescaped when there
    /// is something to unescape, repaired when the bytes are not UTF-8.
    @Test func verbatimBytesAreThoseOfDecodeVerbatim() {
        let inputs = Self.verbatim.map(\.0) + ["", " ", "\t x \r\n", "  https://a.org/x  ", "10.1/a b", " {x} ",
                                               "\\_", "a\u{1}b", "\n\\url{ y }\n", "é ü"]
        for input in inputs {
            let bytes = Array(input.utf8).withUnsafeBufferPointer { LaTeX.withDecodedVerbatim($0) { Array($0) } }
            #expect(bytes == Array(LaTeX.decodeVerbatim(input).utf8), "\(input)")
        }
        let invalid: [UInt8] = [0x20, 0x61, 0xFF, 0x62, 0x20]
        let repaired = invalid.withUnsafeBufferPointer { LaTeX.withDecodedVerbatim($0) { Array($0) } }
        #expect(repaired == Array(LaTeX.decodeVerbatim(String(decoding: invalid, as: UTF8.self)).utf8))
        #expect(String(decoding: repaired, as: UTF8.self) == "a\u{FFFD}b")
    }

    /// `withDecoded` gives exactly `decode`'s text, from one scratch buffer reused across values
    /// long and short: plain text, decoded text, text that needs Unicode composition (stacked
    /// accents), and a lone byte that is not UTF-8.
    @Test func decodingIntoScratchGivesTheDecodedText() {
        let inputs = [
            "plain", "", "x", String(repeating: "long {braced} value -- ", count: 200), "Erd\\H{o}s",
            "\\'{\\\"o}", "{\\\"{U}}ber and G\\\"odel", "$\\alpha$--$\\beta$", "short",
        ] + (Self.accents + Self.letters + Self.punctuation + Self.commands + Self.math + Self.unknown).map(\.0)
        var scratch = ByteBuffer(capacity: 16)
        defer { scratch.deallocate() }
        for input in inputs {
            let viaScratch = Array(input.utf8).withUnsafeBufferPointer { buffer in
                LaTeX.withDecoded(buffer, scratch: &scratch) { String(decoding: $0, as: UTF8.self) }
            }
            #expect(viaScratch == LaTeX.decode(input), "\(input)")
        }
        // A byte that is not UTF-8 is repaired as `decode` repairs it (U+FFFD).
        let bytes = Array("{".utf8) + [0x80] + Array("} x".utf8)
        let repaired = bytes.withUnsafeBufferPointer { buffer in
            LaTeX.withDecoded(buffer, scratch: &scratch) { Array($0) }
        }
        let expected = bytes.withUnsafeBufferPointer { Array(LaTeX.decode($0).utf8) }
        #expect(repaired == expected)
        #expect(String(decoding: repaired, as: UTF8.self) == "\u{FFFD} x")
    }

    /// `appendDecoded` appends exactly `decode`'s text after what the buffer holds: text before
    /// it does not change how the value's own leading spaces and accents are handled.
    @Test func appendingDecodedTextGivesTheDecodedTextAfterWhatIsThere() {
        let inputs = [
            "plain", "", " leading space", "  {\\'e}t{\\'e}", "\\'{\\\"o}", "x \\v{s}", "$x^2$", "\\mathbb{R}",
            "\\'{}", "trailing ", String(repeating: "long {braced} value -- ", count: 200),
        ] + (Self.accents + Self.letters + Self.punctuation + Self.commands + Self.math + Self.unknown).map(\.0)
        var buffer = ByteBuffer(capacity: 16)
        defer { buffer.deallocate() }
        for input in inputs {
            buffer.truncate(to: 0)
            buffer.append("before:")
            Array(input.utf8).withUnsafeBufferPointer { LaTeX.appendDecoded($0, to: &buffer) }
            #expect(buffer.string() == "before:" + LaTeX.decode(input), "\(input)")
        }
        // A byte that is not UTF-8 is repaired as `decode` repairs it, the text before kept.
        buffer.truncate(to: 0)
        buffer.append("é")
        ([0x80] + Array(" x".utf8)).withUnsafeBufferPointer { LaTeX.appendDecoded($0, to: &buffer) }
        #expect(buffer.string() == "é\u{FFFD} x")
    }
}
