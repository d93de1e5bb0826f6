import BibModel
import Testing
import BibreadTestSupport

@Suite("names")
struct NameTests {
    /// (raw name, first, von, last, jr)
    static let forms: [(String, String, String, String, String)] = [
        ("Donald E. Knuth", "Donald E.", "", "Knuth", ""),
        ("Knuth, Donald E.", "Donald E.", "", "Knuth", ""),
        ("Ludwig van Beethoven", "Ludwig", "van", "Beethoven", ""),
        ("van Beethoven, Ludwig", "Ludwig", "van", "Beethoven", ""),
        ("van der Aalst, Wil M. P.", "Wil M. P.", "van der", "Aalst", ""),
        ("Jean de la Fontaine", "Jean", "de la", "Fontaine", ""),
        ("King, Jr, Martin Luther", "Martin Luther", "", "King", "Jr"),
        ("van der Berg, Jr, Pieter", "Pieter", "van der", "Berg", "Jr"),
        ("{Barnes and Noble}", "", "", "Barnes and Noble", ""),
        ("{The Unicode Consortium}", "", "", "The Unicode Consortium", ""),
        (#"G{\"o}del, Kurt"#, "Kurt", "", "Gödel", ""),
        (#"Kurt G{\"o}del"#, "Kurt", "", "Gödel", ""),
        (#"{\'E}douard Lucas"#, "Édouard", "", "Lucas", ""),
        (#"Paul Erd\H{o}s"#, "Paul", "", "Erdős", ""),
        ("Plato", "", "", "Plato", ""),
        ("山田, 太郎", "太郎", "", "山田", ""),
        ("Charles Louis Xavier Joseph de la Vall{\\'e}e Poussin", "Charles Louis Xavier Joseph", "de la", "Vallée Poussin", ""),
        ("Brinch~Hansen, Per", "Per", "", "Brinch Hansen", ""),
        (#"Quint\~{a}o Pereira, Fernando Magno"#, "Fernando Magno", "", "Quintão Pereira", ""),
        (#"Jo\~ao Sim\~oes"#, "João", "", "Simões", ""),
    ]

    @Test(arguments: forms)
    func nameForm(_ raw: String, _ first: String, _ von: String, _ last: String, _ jr: String) throws {
        let list = NameList(raw: raw)
        let name = try #require(list.names.first)
        #expect(list.names.count == 1)
        #expect(name == PersonName(first: first, von: von, last: last, jr: jr))
    }

    /// (raw list, display)
    static let displays: [(String, String)] = [
        ("Knuth, Donald E.", "Knuth"),
        ("Donald E. Knuth and Leslie Lamport", "Knuth & Lamport"),
        ("Knuth, D. and Lamport, L. and Plass, M.", "Knuth, Lamport & Plass"),
        ("A. Knuth and B. Lamport and C. Plass and D. Liang", "Knuth et al."),
        ("Knuth, D. and others", "Knuth et al."),
        ("Wil van der Aalst and Kees van Hee", "van der Aalst & van Hee"),
        ("{Barnes and Noble} and Smith, J.", "Barnes and Noble & Smith"),
        ("Knuth AND Lamport", "Knuth & Lamport"),
        ("", ""),
    ]

    @Test(arguments: displays)
    func display(_ raw: String, _ expected: String) {
        #expect(NameList(raw: raw).display == expected)
    }

    @Test func andInsideBracesDoesNotSplit() {
        #expect(NameList(raw: "{Barnes and Noble} and {Sears, Roebuck and Co.}").names.map(\.last) == ["Barnes and Noble", "Sears, Roebuck and Co."])
    }

    @Test func wordsContainingAndDoNotSplit() {
        #expect(NameList(raw: "Alexander Anderson and Sandra Band").names.map(\.last) == ["Anderson", "Band"])
    }

    @Test func fullNameReadsNaturally() throws {
        let name = try #require(NameList(raw: "van der Berg, Jr, Pieter").names.first)
        #expect(name.fullName == "Pieter van der Berg, Jr")
        #expect(name.shortName == "van der Berg")
    }

    @Test func editorsAreShownWhenThereAreNoAuthors() throws {
        let library = Fixtures.library("@book{k, editor = {Ann Smith and Bob Jones}, title = {T}}")
        let entry = try #require(library.entries.first)
        #expect(entry.authors.isEmpty)
        #expect(entry.creators.display == "Smith & Jones")
    }
}

/// `NameSpanList` writes each name and the short form as bytes; they must be exactly the text
/// `NameList` gives, decoded as Strings.
@Suite("names written from spans")
struct NameSpanListTests {
    /// Lists where a part decodes to nothing, where first names are a comma list, and where
    /// decoding composes accents or meets braces, quotes and separators.
    static let lists: [String] = NameTests.forms.map(\.0) + [
        "", "others", "Knuth and others", "and", " and and ", "A and B and C", "A and B and C and D",
        "van Beethoven", "{}", "{} {}", "von {}", "{}, {}", "{}, {}, {}", "Last, , First", "Last, Jr,",
        "Last, Jr, First, Second, Third", "Last, Jr, {A, B}, C", "van der Berg, Jr, , , X", ", First", ",,",
        #"{\'E}mile, {\"U}ber, {\c{C}}a"#, #"\v{S}imon and \'{A}ngel, \c{c}a and others"#,
        "Kurt~G{\\\"o}del~and~Bob", "De{\\~n}o {\\relax}", "a\u{301} b\u{301}c", "\u{301}Leading, \u{301}mark",
        "Brinch~Hansen, Per", "Sa\"id \\ back", "Tab\there and\tNew\nLine", "{\\ss}tr, \\AA{}ngstr\\\"om",
        "jean-paul sartre", "de la Vallée Poussin, Charles", "Doe, J. and Roe, R. and Poe, P. and Moe, M.",
    ]

    static func spanTexts(_ raw: String) -> (names: [String], display: String, count: Int, hasOthers: Bool, isEmpty: Bool) {
        var raw = raw
        return raw.withUTF8 { bytes in
            let list = NameSpanList(rawBytes: bytes)
            var buffer = ByteBuffer(capacity: 4)
            defer { buffer.deallocate() }
            var names: [String] = []
            for index in 0..<list.count {
                buffer.truncate(to: 0)
                // Something before the name: it must be left as it is and not change the name.
                buffer.append(UInt8(ascii: "e"))
                list.appendFullName(at: index, to: &buffer)
                names.append(String(decoding: UnsafeBufferPointer(start: buffer.base + 1, count: buffer.count - 1), as: UTF8.self))
                #expect(buffer.base[0] == UInt8(ascii: "e"))
            }
            buffer.truncate(to: 0)
            list.appendDisplay(to: &buffer)
            return (names, buffer.string(), list.count, list.hasOthers, list.isEmpty)
        }
    }

    @Test(arguments: lists)
    func spansWriteWhatNameListGives(raw: String) {
        let list = NameList(raw: raw)
        let spans = Self.spanTexts(raw)
        #expect(spans.names == list.names.map(\.fullName))
        #expect(Array(spans.display.utf8) == Array(list.display.utf8))
        #expect(spans.count == list.names.count)
        #expect(spans.hasOthers == list.hasOthers)
        #expect(spans.isEmpty == list.isEmpty)
    }

    @Test func theRareFormsGiveTheirParts() {
        #expect(Self.spanTexts("Last, Jr, First, Second, Third").names == ["First Second Third Last, Jr"])
        #expect(Self.spanTexts("Last, Jr, {A, B}, C").names == ["A, B C Last, Jr"])
        #expect(Self.spanTexts("{}, {}").names == [""])
        #expect(Self.spanTexts("Last, Jr,").names == ["Last, Jr"])
        #expect(Self.spanTexts(#"van der Berg, Jr, Pieter and \"Ozt\"urk"#).display == "van der Berg & Öztürk")
    }

    /// Every author and editor list of the shared corpora.
    @Test func everyNameListOfTheCorporaIsWrittenAsNameListGivesIt() throws {
        var lists = 0
        var mismatches: [String] = []
        for url in Fixtures.corpusBibFiles {
            let library = LibraryLoader.load(paths: [url.path]).library
            for entry in library.entries {
                for known in [WellKnownField.author, .editor] {
                    guard let field = entry.field(known) else { continue }
                    lists += 1
                    let raw = entry.rawText(of: field)
                    let list = NameList(raw: raw)
                    let spans = Self.spanTexts(raw)
                    if spans.names != list.names.map(\.fullName) || Array(spans.display.utf8) != Array(list.display.utf8) {
                        mismatches.append("\(url.lastPathComponent) \(entry.key): \(raw)")
                    }
                }
            }
        }
        #expect(lists > 10_000, "the corpora hold many name lists")
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
