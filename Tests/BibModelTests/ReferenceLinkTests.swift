import BibModel
import BibreadTestSupport
import Testing

@Suite("reference links")
struct ReferenceLinkTests {
    // MARK: - Reading links

    @Test func specExampleLink() throws {
        let link = try ReferenceLink.parse("bibread://open?refs=[KEY:12-14,KEY:20],[KEY2],[KEY3:5]&library=NAME&intention=read")
        #expect(link.papers == [
            PaperReference(key: "KEY", pages: [12...14, 20...20]),
            PaperReference(key: "KEY2"),
            PaperReference(key: "KEY3", pages: [5...5]),
        ])
        #expect(link.library == "NAME")
        #expect(link.intention == .read)
    }

    @Test func defaultsWhenLibraryAndIntentionAreLeftOut() throws {
        let link = try ReferenceLink.parse("bibread://open?refs=[a]")
        #expect(link == ReferenceLink(papers: [PaperReference(key: "a")]))
    }

    @Test func parametersInAnyOrderAndEveryIntention() throws {
        for intention in Intention.allCases {
            let link = try ReferenceLink.parse("bibread://open?intention=\(intention.rawValue)&library=x&refs=[a:3]")
            #expect(link == ReferenceLink(papers: [PaperReference(key: "a", pages: [3...3])], library: "x", intention: intention))
        }
    }

    @Test func schemeAndHostInAnyCaseWhiteSpaceAroundAndSlashAfterHost() throws {
        let expected = ReferenceLink(papers: [PaperReference(key: "a")])
        #expect(try ReferenceLink.parse("BIBREAD://Open?refs=[a]") == expected)
        #expect(try ReferenceLink.parse("  \tbibread://open/?refs=[a]\n") == expected)
    }

    @Test func rangeWrittenWithTheKeyTwice() throws {
        let link = try ReferenceLink.parse("bibread://open?refs=[knuth84:12-Knuth84:14]")
        #expect(link.papers == [PaperReference(key: "knuth84", pages: [12...14])])
    }

    @Test func groupKeysCompareWithoutCaseAndTheFirstSpellingWins() throws {
        let link = try ReferenceLink.parse("bibread://open?refs=[Knuth84:1,KNUTH84:5-6,knuth84]")
        #expect(link.papers == [PaperReference(key: "Knuth84", pages: [1...1, 5...6])])
    }

    @Test func sameKeyInTwoGroupsStaysTwoPapers() throws {
        let link = try ReferenceLink.parse("bibread://open?refs=[a:1],[a:2]")
        #expect(link.papers == [PaperReference(key: "a", pages: [1...1]), PaperReference(key: "a", pages: [2...2])])
    }

    @Test func keysWithColonsTakeThePageAfterTheLastColon() throws {
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth:1984:TeXbook:12]").papers
            == [PaperReference(key: "Knuth:1984:TeXbook", pages: [12...12])])
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth:1984:TeXbook]").papers
            == [PaperReference(key: "Knuth:1984:TeXbook")])
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth:1984:TeXbook:12-14]").papers
            == [PaperReference(key: "Knuth:1984:TeXbook", pages: [12...14])])
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth:1984:TeXbook:12-Knuth:1984:TeXbook:14]").papers
            == [PaperReference(key: "Knuth:1984:TeXbook", pages: [12...14])])
        // The documented ambiguity: a trailing ':digits' is a page ...
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth:1984]").papers
            == [PaperReference(key: "Knuth", pages: [1984...1984])])
        // ... unless the colon is escaped, as `url` writes it.
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth%3A1984]").papers == [PaperReference(key: "Knuth:1984")])
        #expect(try ReferenceLink.parse("bibread://open?refs=[Knuth%3a1984:7]").papers
            == [PaperReference(key: "Knuth:1984", pages: [7...7])])
        // Hyphens in keys are not mistaken for ranges.
        #expect(try ReferenceLink.parse("bibread://open?refs=[Smith-Jones:5]").papers
            == [PaperReference(key: "Smith-Jones", pages: [5...5])])
        // A colon with nothing before it is part of the key.
        #expect(try ReferenceLink.parse("bibread://open?refs=[:12]").papers == [PaperReference(key: ":12")])
    }

    @Test func percentEscapesAreDecodedAfterTheStructureIsSplit() throws {
        let link = try ReferenceLink.parse(
            "bibread://open?refs=[a%5Bb%5D%2Cc%26d:3],[%E6%BC%A2%E5%AD%97],[x+y%2Bz]&library=My%20Library%20%26%20Co")
        #expect(link.papers == [
            PaperReference(key: "a[b],c&d", pages: [3...3]),
            PaperReference(key: "漢字"),
            PaperReference(key: "x+y+z"),
        ])
        #expect(link.library == "My Library & Co")
    }

    @Test func rawUnicodeInALinkIsAccepted() throws {
        #expect(try ReferenceLink.parse("bibread://open?refs=[Gödel31:4]&library=Bibliothèque").papers
            == [PaperReference(key: "Gödel31", pages: [4...4])])
    }

    // MARK: - Writing links

    @Test func canonicalURL() {
        let link = ReferenceLink(papers: [
            PaperReference(key: "knuth84", pages: [12...14, 20...20]),
            PaperReference(key: "lamport94"),
            PaperReference(key: "Knuth:1984", pages: [5...5]),
        ], library: "main lib", intention: .study)
        #expect(link.url == "bibread://open?refs=[knuth84:12-14,knuth84:20],[lamport94],[Knuth%3A1984:5]&library=main%20lib&intention=study")
        #expect(ReferenceLink(papers: [PaperReference(key: "a")]).url == "bibread://open?refs=[a]")
    }

    @Test func keysAreEscapedForStructureAndURLs() {
        let link = ReferenceLink(papers: [PaperReference(key: "a[b],c:d&e#f%g?h=i+j/k é~_.-!$*;@")], library: "ü")
        #expect(link.url == "bibread://open?refs=[a%5Bb%5D%2Cc%3Ad%26e%23f%25g%3Fh%3Di%2Bj%2Fk%20%C3%A9~_.-!$*;@]&library=%C3%BC")
    }

    static let roundTripCases: [ReferenceLink] = [
        ReferenceLink(papers: [PaperReference(key: "knuth84")]),
        ReferenceLink(papers: [PaperReference(key: "knuth84", pages: [12...14, 20...20, 1...1])], library: "main", intention: .cite),
        ReferenceLink(papers: [PaperReference(key: "Knuth:1984:TeXbook", pages: [12...12]), PaperReference(key: "Knuth:1984")]),
        ReferenceLink(papers: [PaperReference(key: "k:12-k:14"), PaperReference(key: "k:12-14", pages: [3...3])]),
        ReferenceLink(papers: [PaperReference(key: "ключ", pages: [1...1_000_000]), PaperReference(key: "漢字🙂")], intention: .listen),
        ReferenceLink(papers: [PaperReference(key: "e\u{301}cole", pages: [7...9])], library: "My Library & Co. 100%"),
        ReferenceLink(papers: [PaperReference(key: "a[b],c&d=e#f?g+h/i%j")], library: "x=y&z#w"),
        ReferenceLink(papers: [PaperReference(key: String(repeating: "k", count: 256))], library: String(repeating: "l", count: 256)),
        ReferenceLink(papers: [PaperReference(key: "a"), PaperReference(key: "a"), PaperReference(key: "A", pages: [2...2])], intention: .study),
    ]

    @Test(arguments: roundTripCases)
    func roundTrip(_ link: ReferenceLink) throws {
        #expect(try ReferenceLink.parse(link.url) == link)
    }

    @Test func twoHundredPapersRoundTrip() throws {
        let link = ReferenceLink(papers: (1...200).map { PaperReference(key: "k\($0)", pages: [$0...$0]) })
        #expect(try ReferenceLink.parse(link.url) == link)
    }

    /// Characters keys are built from: structure, URL delimiters, colons and digits (to tempt the
    /// page reading), non-ASCII letters, a combining accent, emoji.
    static let keyAlphabet: [String] = [
        "a", "b", "Z", "q", "0", "1", "9", "42", ":", ":1", ":12-", "-", "_", ".", "[", "]", ",", "&", "#", "%", "?", "=",
        "+", "/", "@", "!", "~", "(", ")", "'", "\"", "é", "e\u{301}", "ü", "ß", "漢", "字", "🙂", "ключ", "%41", "%zz",
    ]
    static let libraryAlphabet = keyAlphabet + [" ", "  ", "\u{A0}"]

    fileprivate static func randomText(from alphabet: [String], length: ClosedRange<Int>, using generator: inout SeededGenerator) -> String {
        let count = Int.random(in: length, using: &generator)
        var text = ""
        for _ in 0..<count { text += alphabet.randomElement(using: &generator) ?? "a" }
        return text
    }

    fileprivate static func randomLink(using generator: inout SeededGenerator) -> ReferenceLink {
        let papers = (0..<Int.random(in: 1...6, using: &generator)).map { _ -> PaperReference in
            var key = randomText(from: keyAlphabet, length: 1...12, using: &generator)
            if Bool.random(using: &generator) { key += ":" + String(Int.random(in: 0...2000, using: &generator)) }
            let pages = (0..<Int.random(in: 0...4, using: &generator)).map { _ -> ClosedRange<Int> in
                let first = Bool.random(using: &generator)
                    ? Int.random(in: 1...30, using: &generator)
                    : Int.random(in: 1...ReferenceLink.maxPage, using: &generator)
                let last = min(ReferenceLink.maxPage, first + Int.random(in: 0...40, using: &generator) * Int.random(in: 0...1, using: &generator))
                return first...last
            }
            return PaperReference(key: key, pages: pages)
        }
        let library = Bool.random(using: &generator) ? randomText(from: libraryAlphabet, length: 1...10, using: &generator) : nil
        let intention = Intention.allCases.randomElement(using: &generator) ?? .read
        return ReferenceLink(papers: papers, library: library, intention: intention)
    }

    @Test func randomLinksRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x5EED_B1B5)
        for _ in 0..<500 {
            let link = Self.randomLink(using: &generator)
            let url = link.url
            #expect(url.count <= ReferenceLink.maxLength)
            #expect(!url.contains(" ") && !url.contains("#"), "\(url)")
            #expect(try ReferenceLink.parse(url) == link, "\(url)")
        }
    }

    /// Damaged links (a character deleted, doubled or replaced) never crash: they read, and then
    /// their canonical form reads back the same, or they fail at a column inside the text (or just past it).
    @Test func damagedLinksFailAtAColumnInsideTheText() {
        var generator = SeededGenerator(seed: 42)
        let noise: [Character] = ["[", "]", ",", ":", "-", "&", "=", "%", "#", " ", "0", "9", "x", "é", "?"]
        var failures = 0
        for _ in 0..<500 {
            var characters = Array(Self.randomLink(using: &generator).url)
            let position = Int.random(in: 0..<characters.count, using: &generator)
            switch Int.random(in: 0...2, using: &generator) {
            case 0: characters.remove(at: position)
            case 1: characters.insert(characters[position], at: position)
            default: characters[position] = noise.randomElement(using: &generator) ?? "x"
            }
            let text = String(characters)
            do {
                let link = try ReferenceLink.parse(text)
                if link.url.count <= ReferenceLink.maxLength {
                    #expect(try ReferenceLink.parse(link.url) == link, "\(text)")
                }
            } catch let error as ReferenceLinkError {
                failures += 1
                #expect((1...(text.count + 1)).contains(error.column), "\(text): \(error)")
            } catch {
                Issue.record("unexpected error \(error) for \(text)")
            }
        }
        #expect(failures > 100)
    }

    // MARK: - Errors

    static let linkErrors: [(String, String, Int)] = [
        ("bibread://open?refs=[knuth84:14-12]", "a page range ends before it starts (14-12)", 30),
        ("bibread://open?refs=[knuth84:12,lamport94:3]", "a group holds references to one paper; found knuth84 and lamport94", 33),
        ("bibread://open?refs=[knuth84:12-lamport94:14]", "both ends of a page range name the same paper; found knuth84 and lamport94", 33),
        ("bibread://open?refs=[a]&color=red", "unknown parameter 'color' (expected refs, library or intention)", 25),
        ("bibread://open?refs=[a]&refs=[b]", "parameter 'refs' is given twice", 25),
        ("bibread://open?refs=[a]&intention=cite&intention=read", "parameter 'intention' is given twice", 40),
        ("bibread://open?library=main", "the link has no refs parameter (refs=[KEY:PAGE],…)", 16),
        ("bibread://open?refs=[a],[]", "empty group: a group names one paper", 25),
        ("bibread://open?refs=[a]&intention=skim", "unknown intention 'skim' (expected read, study, cite or listen)", 35),
        ("bibread://open?refs=[a]&intention=Read", "unknown intention 'Read' (expected read, study, cite or listen)", 35),
        ("bibread://open?refs=[a:0]", "pages start at 1 (found 0)", 24),
        ("bibread://open?refs=[a:1000001]", "page numbers go up to 1000000 (found 1000001)", 24),
        ("bibread://open?refs=[a:5-99999999999999999999999]", "page numbers go up to 1000000 (found 99999999999999999999999)", 26),
        ("bibread://open?refs=[knuth%2084]", "a cite key cannot contain white space or control characters (found a space)", 27),
        ("bibread://open?refs=[a%0Ab]", "a cite key cannot contain white space or control characters (found a line break)", 23),
        ("bibread://open?refs=[a%7F]", "a cite key cannot contain white space or control characters (found U+007F)", 23),
        ("bibread://open?refs=[kn%G1uth]", "bad percent escape '%G1': '%' is followed by two hex digits (write '%' itself as %25)", 24),
        ("bibread://open?refs=[a%2]", "bad percent escape '%2': '%' is followed by two hex digits (write '%' itself as %25)", 23),
        ("bibread://open?refs=[a%FFb]", "percent escapes that are not UTF-8 text", 23),
        ("bibread://open?refs=[%C3%A9%FF]", "percent escapes that are not UTF-8 text", 28),
        ("bibread://open?refs=[a]&library=", "the library name is empty (leave library out for the default library)", 33),
        ("bibread://open?refs=[a]&library=a%07", "a library name cannot contain control characters (found U+0007)", 34),
        ("bibread://open?refs=[a]&library=%zz", "bad percent escape '%zz': '%' is followed by two hex digits (write '%' itself as %25)", 33),
        ("http://example.com/x", "not a bibread link: expected bibread://open?refs=… (found 'http://')", 1),
        ("bibread://bookmarks?x", "expected the host 'open' after bibread:// (found 'bookmarks')", 11),
        ("bibread://?refs=[a]", "expected the host 'open' after bibread:// (found none)", 11),
        ("bibread:open?refs=[a]", "expected '//' after 'bibread:' (links read bibread://open?refs=…)", 9),
        ("bibread://open", "the link has no query: expected ?refs=… after bibread://open", 15),
        ("bibread://open?refs=[a] bibread://open?refs=[b]", "a link cannot contain white space (percent-encode spaces as %20; one link at a time)", 24),
        ("bibread://open?refs=[a]bibread://open?refs=[b]", "expected ',' or the end of refs after ']' (found 'b')", 24),
        ("bibread://open?refs=[a]x", "expected ',' or the end of refs after ']' (found 'x')", 24),
        ("bibread://open?refs=[a],", "expected '[' to open the next group after ',' (found the end)", 25),
        ("bibread://open?refs=[a],b", "expected '[' to open the next group after ',' (found 'b')", 25),
        ("bibread://open?refs=a", "refs is a list of groups in brackets: expected '[' (found 'a')", 21),
        ("bibread://open?refs=[a,b", "this '[' has no matching ']'", 21),
        ("bibread://open?refs=[a[b]]", "'[' inside a group (percent-encode it as %5B in keys)", 23),
        ("bibread://open?refs=[a,,a]", "empty reference in a group (expected KEY or KEY:PAGE)", 24),
        ("bibread://open?refs=[a,]", "empty reference in a group (expected KEY or KEY:PAGE)", 24),
        ("bibread://open?refs=[a#b]", "a link cannot contain '#' (percent-encode it as %23)", 23),
        ("bibread://open?refs=", "refs names no papers (expected refs=[KEY:PAGE],…)", 21),
        ("bibread://open?refs", "parameter 'refs' has no value (expected refs=…)", 16),
        ("bibread://open?refs=[a]&", "empty parameter: expected name=value", 25),
        ("bibread://open?refs=[a]&=x", "a parameter needs a name before '='", 25),
        ("bibread://open?", "empty parameter: expected name=value", 16),
        ("   bibread://open?refs=[a:0]", "pages start at 1 (found 0)", 27),
        ("bibread://open?refs=[a:12-]", "expected the last page of the range after '-'", 27),
    ]

    @Test(arguments: linkErrors)
    func linkError(_ text: String, _ message: String, _ column: Int) {
        #expect(throws: ReferenceLinkError(message: message, column: column)) {
            try ReferenceLink.parse(text)
        }
    }

    // MARK: - Caps

    @Test func textLongerThanTheCap() {
        let text = "bibread://open?refs=[" + String(repeating: "a", count: ReferenceLink.maxLength) + "]"
        #expect(throws: ReferenceLinkError(message: "the text is longer than 8192 characters", column: 8193)) {
            try ReferenceLink.parse(text)
        }
        // The column counts the white space the text was given with.
        #expect(throws: ReferenceLinkError(message: "the text is longer than 8192 characters", column: 8195)) {
            try ReferenceLink.parse("  " + text)
        }
        // Exactly the cap is fine (the key is then too long, which is another error).
        let atCap = "bibread://open?refs=[a]&library=" + String(repeating: "l", count: ReferenceLink.maxLength - 32)
        #expect(atCap.count == ReferenceLink.maxLength)
        #expect(throws: ReferenceLinkError(message: "a library name is at most 256 characters (found 8160)", column: 33)) {
            try ReferenceLink.parse(atCap)
        }
    }

    @Test func tooManyPapers() throws {
        let groups = Array(repeating: "[a]", count: 201).joined(separator: ",")
        #expect(throws: ReferenceLinkError(message: "a link names at most 200 papers", column: 21 + 200 * 4)) {
            try ReferenceLink.parse("bibread://open?refs=" + groups)
        }
        let atCap = Array(repeating: "[a]", count: 200).joined(separator: ",")
        #expect(try ReferenceLink.parse("bibread://open?refs=" + atCap).papers.count == 200)
    }

    @Test func keyAndLibraryLengths() throws {
        let key256 = String(repeating: "k", count: 256)
        #expect(try ReferenceLink.parse("bibread://open?refs=[\(key256):3]").papers == [PaperReference(key: key256, pages: [3...3])])
        #expect(throws: ReferenceLinkError(message: "a cite key is at most 256 characters (found 257)", column: 22)) {
            try ReferenceLink.parse("bibread://open?refs=[\(key256)k:3]")
        }
        // Counted in characters after decoding: 256 escaped characters are fine.
        let escaped = String(repeating: "%C3%A9", count: 256)
        #expect(try ReferenceLink.parse("bibread://open?refs=[\(escaped)]").papers == [PaperReference(key: String(repeating: "é", count: 256))])
        #expect(throws: ReferenceLinkError(message: "a library name is at most 256 characters (found 257)", column: 33)) {
            try ReferenceLink.parse("bibread://open?refs=[a]&library=" + String(repeating: "l", count: 257))
        }
    }

    @Test func pageLimits() throws {
        #expect(try ReferenceLink.parse("bibread://open?refs=[a:1-1000000]").papers == [PaperReference(key: "a", pages: [1...1_000_000])])
        #expect(throws: ReferenceLinkError(message: "page numbers go up to 1000000 (found 1000001)", column: 26)) {
            try ReferenceLink.parse("bibread://open?refs=[a:1-1000001]")
        }
        #expect(throws: ReferenceLinkError(message: "pages start at 1 (found 000)", column: 24)) {
            try ReferenceLink.parse("bibread://open?refs=[a:000]")
        }
    }

    // MARK: - Bare targets

    static let targets: [(String, PaperReference)] = [
        ("knuth84", PaperReference(key: "knuth84")),
        ("knuth84:12", PaperReference(key: "knuth84", pages: [12...12])),
        ("knuth84:12-14", PaperReference(key: "knuth84", pages: [12...14])),
        ("knuth84:12-KNUTH84:14", PaperReference(key: "knuth84", pages: [12...14])),
        ("Knuth:1984:TeXbook:12", PaperReference(key: "Knuth:1984:TeXbook", pages: [12...12])),
        ("Knuth:1984:TeXbook", PaperReference(key: "Knuth:1984:TeXbook")),
        ("Knuth:1984", PaperReference(key: "Knuth", pages: [1984...1984])),
        ("Knuth%3A1984", PaperReference(key: "Knuth%3A1984")),
        ("  Gödel31:4\n", PaperReference(key: "Gödel31", pages: [4...4])),
        ("doi:10.1000/182", PaperReference(key: "doi:10.1000/182")),
    ]

    @Test(arguments: targets)
    func bareTarget(_ text: String, _ expected: PaperReference) throws {
        #expect(try ReferenceLink.parseTarget(text) == expected)
        #expect(try ReferenceLink.parse(text) == ReferenceLink(papers: [expected]))
    }

    static let targetErrors: [(String, String, Int)] = [
        ("knuth84 p. 5", "a target cannot contain white space: write KEY, KEY:12 or KEY:12-14", 8),
        ("a:1,b:2", "a target names one reference: write KEY, KEY:12 or KEY:12-14 (use a link for several)", 4),
        ("knuth84:0", "pages start at 1 (found 0)", 9),
        ("  knuth84:14-12  ", "a page range ends before it starts (14-12)", 11),
        ("knuth84:12-lamport94:14", "both ends of a page range name the same paper; found knuth84 and lamport94", 12),
        ("knuth84:9999999", "page numbers go up to 1000000 (found 9999999)", 9),
        ("   ", "nothing to read: expected KEY, KEY:12 or KEY:12-14", 4),
        ("bibread://open?refs=[a]", "expected a target KEY, KEY:12 or KEY:12-14, not a link", 1),
        ("https://example.org", "expected a target KEY, KEY:12 or KEY:12-14, not a link", 1),
        (" @knuth84", "expected a target KEY, KEY:12 or KEY:12-14, not a citation", 2),
        ("\\cite{a}", "expected a target KEY, KEY:12 or KEY:12-14, not a citation", 1),
        (String(repeating: "k", count: 257), "a cite key is at most 256 characters (found 257)", 1),
        ("a\u{7}b", "a cite key cannot contain white space or control characters (found U+0007)", 2),
    ]

    @Test(arguments: targetErrors)
    func targetError(_ text: String, _ message: String, _ column: Int) {
        #expect(throws: ReferenceLinkError(message: message, column: column)) {
            try ReferenceLink.parseTarget(text)
        }
    }

    @Test func emptyInput() {
        #expect(throws: ReferenceLinkError(message: "nothing to read: expected a link, a cite key or a citation", column: 1)) {
            try ReferenceLink.parse("")
        }
    }

    // MARK: - The error's text

    @Test func description() throws {
        let error = try #require(throws: ReferenceLinkError.self) {
            try ReferenceLink.parse("bibread://open?refs=[knuth84:14-12]")
        }
        #expect(error.description == "column 30: a page range ends before it starts (14-12)")
        #expect("\(error)" == "column 30: a page range ends before it starts (14-12)")
    }

    @Test func pointing() {
        #expect(ReferenceLinkError(message: "m", column: 5).pointing(at: "abcdefg") == "abcdefg\n    ^")
        #expect(ReferenceLinkError(message: "m", column: 1).pointing(at: "abc") == "abc\n^")
        // Past the end: the caret follows the last character.
        #expect(ReferenceLinkError(message: "m", column: 4).pointing(at: "abc") == "abc\n   ^")
        // Tabs and line breaks show as spaces; wide characters take two columns.
        #expect(ReferenceLinkError(message: "m", column: 3).pointing(at: "\ta\nb") == " a b\n  ^")
        #expect(ReferenceLinkError(message: "m", column: 4).pointing(at: "漢字:0") == "漢字:0\n     ^")
    }

    @Test func pointingIntoALongTextShowsAWindow() {
        let text = String(repeating: "a", count: 100) + "X" + String(repeating: "b", count: 100)
        let lines = ReferenceLinkError(message: "m", column: 101).pointing(at: text, window: 20).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == "…" + String(repeating: "a", count: 10) + "X" + String(repeating: "b", count: 9) + "…")
        #expect(lines[1] == String(repeating: " ", count: 11) + "^")
        // At the start no leading ellipsis.
        let start = ReferenceLinkError(message: "m", column: 2).pointing(at: text, window: 20).split(separator: "\n")
        #expect(start[0] == String(repeating: "a", count: 20) + "…")
        #expect(start[1] == " ^")
    }

    @Test func errorsFromParsingPointAtTheRightCharacter() throws {
        let text = "  bibread://open?refs=[knuth84:12,lamport94:3]"
        let error = try #require(throws: ReferenceLinkError.self) { try ReferenceLink.parse(text) }
        #expect(error.pointing(at: text) == text + "\n" + String(repeating: " ", count: 34) + "^")
        #expect(Array(text)[error.column - 1] == "l")
    }

    // MARK: - Pages of the file (#N)

    @Test func hashNamesAPageOfTheFileAndTheLinkWritesItEscaped() throws {
        let target = try ReferenceLink.parseTarget("knuth84:#12")
        #expect(target.key == "knuth84")
        #expect(ReferenceLink(papers: [target]).url == "bibread://open?refs=[knuth84:%2312]")
        let range = try ReferenceLink.parseTarget("knuth84:#12-14")
        #expect(ReferenceLink(papers: [range]).url == "bibread://open?refs=[knuth84:%2312-14]")
        let link = "bibread://open?refs=[knuth84:%2312-14,knuth84:%2320],[lamport94:5]"
        #expect(try ReferenceLink.parse(link).url == link)
        #expect(try ReferenceLink.parse("knuth84:#12") == ReferenceLink.parse("bibread://open?refs=[knuth84:%2312]"))
        #expect(try ReferenceLink.parse("knuth84:#12") != ReferenceLink.parse("knuth84:12"), "a printed page is not a page of the file")
    }

    @Test func aGroupCountsItsPagesOneWay() throws {
        let text = "bibread://open?refs=[knuth84:%2312,knuth84:13]"
        let error = try #require(throws: ReferenceLinkError.self) { try ReferenceLink.parse(text) }
        #expect(error.message.contains("printed pages or pages of the file"), "\(error.message)")
        #expect(throws: ReferenceLinkError.self) { try ReferenceLink.parseTarget("knuth84:#") }
        #expect(throws: ReferenceLinkError.self) { try ReferenceLink.parseTarget("knuth84:#0") }
    }
}
