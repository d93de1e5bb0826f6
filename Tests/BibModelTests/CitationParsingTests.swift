import BibModel
import Testing

@Suite("citations as written in manuscripts")
struct CitationParsingTests {
    static func paper(_ key: String, _ pages: ClosedRange<Int>...) -> PaperReference {
        PaperReference(key: key, pages: pages)
    }

    // MARK: - pandoc

    static let pandoc: [(String, [PaperReference])] = [
        ("[@knuth84, p. 33; @lamport94]", [paper("knuth84", 33...33), paper("lamport94")]),
        ("[see @knuth84, pp. 33-35]", [paper("knuth84", 33...35)]),
        ("[-@knuth84]", [paper("knuth84")]),
        ("@knuth84", [paper("knuth84")]),
        ("@knuth84 [p. 33]", [paper("knuth84", 33...33)]),
        ("[@knuth84, pp. 33--35]", [paper("knuth84", 33...35)]),
        ("[@knuth84, pp. 33–35]", [paper("knuth84", 33...35)]),
        ("[@knuth84, pp. 33, 35]", [paper("knuth84", 33...33, 35...35)]),
        ("[@knuth84, pp. 33-35, 38-39]", [paper("knuth84", 33...35, 38...39)]),
        ("[@knuth84, 33]", [paper("knuth84", 33...33)]),
        ("[@knuth84, page 7]", [paper("knuth84", 7...7)]),
        ("[@knuth84, Pages 7 - 9,12]", [paper("knuth84", 7...9, 12...12)]),
        ("[@knuth84 p. 7]", [paper("knuth84", 7...7)]),
        ("[@knuth84, p.7]", [paper("knuth84", 7...7)]),
        ("[see @knuth84, pp. 33-35; also -@lamport94, p. 5; @doe99]",
         [paper("knuth84", 33...35), paper("lamport94", 5...5), paper("doe99")]),
        ("[@a; @a, p. 2]", [paper("a"), paper("a", 2...2)]),
        ("[@{knuth:84}, p. 5]", [paper("knuth:84", 5...5)]),
        ("@Knuth:1984:TeXbook", [paper("Knuth:1984:TeXbook")]),
        ("@doe-99/x.y", [paper("doe-99/x.y")]),
        ("@_under_score", [paper("_under_score")]),
        ("@Gödel31", [paper("Gödel31")]),
        ("  [@knuth84]  ", [paper("knuth84")]),
    ]

    @Test(arguments: pandoc)
    func pandocCitation(_ text: String, _ expected: [PaperReference]) throws {
        let link = try ReferenceLink.parse(text)
        #expect(link.papers == expected)
        #expect(link.library == nil && link.intention == .read)
    }

    static let pandocErrors: [(String, String, Int)] = [
        ("[@knuth84, chap. 3]", "only page locators can be followed (found 'chap.')", 12),
        ("[@knuth84, sec. 2; @b]", "only page locators can be followed (found 'sec.')", 12),
        ("[@knuth84, fig.3]", "only page locators can be followed (found 'fig.')", 12),
        ("[@knuth84, emphasis added]", "only page locators can be followed (found 'emphasis')", 12),
        ("[@knuth84, p. 35-33]", "a page range ends before it starts (35-33)", 15),
        ("[@knuth84, p.]", "expected a page number after 'p.'", 14),
        ("[@knuth84, p. 0]", "pages start at 1 (found 0)", 15),
        ("[@knuth84, p. 1000001]", "page numbers go up to 1000000 (found 1000001)", 15),
        ("[@knuth84", "this '[' has no matching ']'", 1),
        ("[@knuth84; @b", "this '[' has no matching ']'", 1),
        ("[see]", "a citation needs a cite key: expected '@key'", 5),
        ("[]", "a citation needs a cite key: expected '@key'", 2),
        ("[@a; ]", "a citation needs a cite key: expected '@key'", 6),
        ("[@knuth84] trailing", "unexpected text after the citation (found 'trailing')", 12),
        ("@knuth84 and @lamport94", "unexpected text after the citation (found 'and @lamport…')", 10),
        ("@knuth84.", "unexpected text after the citation (found '.')", 9),
        ("@", "expected a cite key after '@'", 2),
        ("@-x", "a cite key starts with a letter, a digit or '_' (found '-')", 2),
        ("[@a, p. 33 and passim]", "unexpected text after the page numbers (found 'and')", 12),
        ("[@a, pp. 33,]", "expected a page number after ','", 13),
        ("[@a, 5-]", "expected the last page of the range after '-'", 8),
        ("[@a [b]]", "unexpected '[' inside a citation", 5),
        ("@{knuth", "this '{' has no matching '}'", 2),
        ("@{}", "a reference needs a cite key", 3),
        ("@{Knuth 1984's book!}", "a cite key cannot contain white space or control characters (found a space)", 8),
        ("@knuth84 [p. 3", "this '[' has no matching ']'", 10),
        ("@knuth84 [chap. 3]", "only page locators can be followed (found 'chap.')", 11),
    ]

    @Test(arguments: pandocErrors)
    func pandocError(_ text: String, _ message: String, _ column: Int) {
        #expect(throws: ReferenceLinkError(message: message, column: column)) {
            try ReferenceLink.parse(text)
        }
    }

    @Test func pandocKeyLengthAndPaperCaps() throws {
        let key = String(repeating: "k", count: 257)
        #expect(throws: ReferenceLinkError(message: "a cite key is at most 256 characters (found 257)", column: 3)) {
            try ReferenceLink.parse("[@\(key)]")
        }
        let cites = (1...201).map { "@k\($0)" }
        #expect(try ReferenceLink.parse("[" + cites.prefix(200).joined(separator: "; ") + "]").papers.count == 200)
        // The 201st '@' comes after "[" and 200 cites with their "; ".
        let column = 1 + cites.prefix(200).reduce(0) { $0 + $1.count + 2 } + 1
        #expect(throws: ReferenceLinkError(message: "a citation names at most 200 papers", column: column)) {
            try ReferenceLink.parse("[" + cites.joined(separator: "; ") + "]")
        }
    }

    // MARK: - LaTeX

    static let latex: [(String, [PaperReference])] = [
        ("\\cite{a,b}", [paper("a"), paper("b")]),
        ("\\cite[p.~5]{a}", [paper("a", 5...5)]),
        ("\\cite[see][p.~5]{a}", [paper("a", 5...5)]),
        ("\\cite[p.~5]{key1,key2}", [paper("key1"), paper("key2", 5...5)]),
        ("\\citep[pp.~5--7]{a, b}", [paper("a"), paper("b", 5...7)]),
        ("\\citet*[5]{a}", [paper("a", 5...5)]),
        ("\\parencite[5-7]{a}", [paper("a", 5...7)]),
        ("\\textcite{a}", [paper("a")]),
        ("\\autocite[p. 5]{a}", [paper("a", 5...5)]),
        ("\\footcite[][p.~9]{a}", [paper("a", 9...9)]),
        ("\\cite[see][]{a}", [paper("a")]),
        ("\\cite[]{a}", [paper("a")]),
        ("\\Textcite{a}", [paper("a")]),
        ("\\parencite*{a}", [paper("a")]),
        ("\\cite{ a ,\tb , Knuth:1984:TeXbook }", [paper("a"), paper("b"), paper("Knuth:1984:TeXbook")]),
        ("\\cite [{see also}] [pp.~3, 7--9] {a}", [paper("a", 3...3, 7...9)]),
        ("\\cite{a,a}", [paper("a"), paper("a")]),
    ]

    @Test(arguments: latex)
    func latexCitation(_ text: String, _ expected: [PaperReference]) throws {
        let link = try ReferenceLink.parse(text)
        #expect(link.papers == expected)
        #expect(link.library == nil && link.intention == .read)
    }

    static let latexErrors: [(String, String, Int)] = [
        ("\\cite[chap.~3]{a}", "only page locators can be followed (found 'chap.')", 7),
        ("\\cite[see]{a}", "only page locators can be followed (found 'see')", 7),
        ("\\cite[p.~]{a}", "expected a page number after 'p.'", 10),
        ("\\cite[p.~7--5]{a}", "a page range ends before it starts (7-5)", 10),
        ("\\cite[p.~0]{a}", "pages start at 1 (found 0)", 10),
        ("\\cite{a,,b}", "empty cite key", 9),
        ("\\cite{a, }", "empty cite key", 10),
        ("\\cite{}", "the citation names no cite key", 7),
        ("\\cite{a", "this '{' has no matching '}'", 6),
        ("\\cite[p.~5", "this '[' has no matching ']'", 6),
        ("\\cite[p.~5]", "expected '{' with the cite keys", 12),
        ("\\cite{a}{b}", "unexpected text after the citation (found '{b}')", 9),
        ("\\cite{a}\\cite{b}", "unexpected text after the citation (found '\\cite{b}')", 9),
        ("\\cite[a][b][c]{x}", "a citation command takes at most two optional arguments", 12),
        ("\\citeauthor{a}", "unknown citation command '\\citeauthor' (expected \\cite, \\citep, \\citet, \\parencite, \\textcite, \\autocite or \\footcite)", 1),
        ("\\{a}", "unknown citation command (expected \\cite, \\citep, \\citet, \\parencite, \\textcite, \\autocite or \\footcite)", 1),
        ("\\cite{a b}", "a cite key cannot contain white space or control characters (found a space)", 8),
        ("\\cite{a{b}}", "unexpected '{' inside the cite keys", 8),
        ("\\cite[}]{a}", "unexpected '}' inside '[…]'", 7),
        ("  \\cite[p.~5 and passim]{a}", "unexpected text after the page numbers (found 'and')", 14),
    ]

    @Test(arguments: latexErrors)
    func latexError(_ text: String, _ message: String, _ column: Int) {
        #expect(throws: ReferenceLinkError(message: message, column: column)) {
            try ReferenceLink.parse(text)
        }
    }

    @Test func latexPaperCap() throws {
        let keys = (1...201).map { "k\($0)" }
        #expect(try ReferenceLink.parse("\\cite{" + keys.prefix(200).joined(separator: ",") + "}").papers.count == 200)
        let column = 7 + keys.prefix(200).reduce(0) { $0 + $1.count + 1 }
        #expect(throws: ReferenceLinkError(message: "a citation names at most 200 papers", column: column)) {
            try ReferenceLink.parse("\\cite{" + keys.joined(separator: ",") + "}")
        }
    }

    /// What a citation reads as, written as a link, reads back the same.
    @Test(arguments: (pandoc + latex).map(\.0))
    func citationsBecomeLinksThatRoundTrip(_ text: String) throws {
        let link = try ReferenceLink.parse(text)
        #expect(try ReferenceLink.parse(link.url) == link)
    }
}
