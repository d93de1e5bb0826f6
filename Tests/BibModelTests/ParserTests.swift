@testable import BibModel
import Testing
import BibreadTestSupport

@Suite("BibTeX syntax")
struct ParserTests {
    /// One rule of the grammar: input, the key to look at, a field and its expected raw value.
    struct Case: CustomTestStringConvertible, Sendable {
        let rule: String
        let input: String
        let key: String
        let field: String
        let raw: String
        var testDescription: String { rule }
    }

    static let cases: [Case] = [
        Case(rule: "braces delimit entries", input: "@article{k, title = {T}}", key: "k", field: "title", raw: "T"),
        Case(rule: "parentheses delimit entries", input: "@article(k, title = {T})", key: "k", field: "title", raw: "T"),
        Case(rule: "quoted values keep inner braces", input: #"@misc{k, title = "A {B} C"}"#, key: "k", field: "title", raw: "A {B} C"),
        Case(rule: "nested braces", input: "@misc{k, title = {A {B {C}} D}}", key: "k", field: "title", raw: "A {B {C}} D"),
        Case(rule: "bare numbers", input: "@misc{k, year = 1984}", key: "k", field: "year", raw: "1984"),
        Case(rule: "month macros", input: "@misc{k, month = nov}", key: "k", field: "month", raw: "November"),
        Case(rule: "@string macros are case-insensitive", input: "@String{TUB = {TUGboat}}\n@misc{k, journal = tub}", key: "k", field: "journal", raw: "TUGboat"),
        Case(rule: "# concatenates parts", input: "@string{a = \"Soft\"}\n@misc{k, journal = a # {ware} # \" \" # 2}", key: "k", field: "journal", raw: "Software 2"),
        Case(rule: "macros may use earlier macros", input: "@string{a = {X}}\n@string{b = a # {Y}}\n@misc{k, note = b}", key: "k", field: "note", raw: "XY"),
        Case(rule: "field names are case-insensitive", input: "@misc{k, TiTlE = {T}}", key: "k", field: "title", raw: "T"),
        Case(rule: "keys are found ignoring case", input: "@misc{KnUth84, title = {T}}", key: "knuth84", field: "title", raw: "T"),
        Case(rule: "trailing comma", input: "@misc{k, title = {T},\n}", key: "k", field: "title", raw: "T"),
        Case(rule: "text outside entries is ignored", input: "Some notes here.\n@misc{k, title = {T}}\nmore text", key: "k", field: "title", raw: "T"),
        Case(rule: "white space around the type", input: "@ misc {k, title = {T}}", key: "k", field: "title", raw: "T"),
        Case(rule: "% comments inside an entry (as biber reads them)", input: "@misc{k,\n% a note\n title = {T}}", key: "k", field: "title", raw: "T"),
        Case(rule: "a parenthesised entry may hold braces", input: "@misc(k, title = {(a) {b}})", key: "k", field: "title", raw: "(a) {b}"),
        Case(rule: "line breaks between type and brace", input: "@incollection\n(\n    k, title = {T})", key: "k", field: "title", raw: "T"),
        Case(rule: "a bare @comment line is a comment", input: "@Comment Len Schubert\n@misc{k, title = {T}}", key: "k", field: "title", raw: "T"),
    ]

    @Test(arguments: cases)
    func rule(_ testCase: Case) throws {
        let library = Fixtures.library(testCase.input)
        let entry = try #require(library.entry(addressedBy: testCase.key), "no entry \(testCase.key)")
        #expect(entry.raw(testCase.field) == testCase.raw)
        #expect(library.errorCount == 0, "\(library.diagnostics)")
    }

    @Test func preambleAndCommentsAreKept() {
        let library = Fixtures.library("""
        @preamble{ "\\newcommand{\\noopsort}[1]{}" # "x" }
        @comment{BibDesk Static Groups{ <plist>{nested}</plist> }}
        @Comment{jabref-meta: databaseType:bibtex;}
        @misc{k, title = {T}}
        """)
        let file = library.files[0]
        #expect(file.preambles.map(\.text) == ["\\newcommand{\\noopsort}[1]{}x"])
        #expect(file.comments.map(\.text) == ["BibDesk Static Groups{ <plist>{nested}</plist> }", "jabref-meta: databaseType:bibtex;"])
        #expect(library.entries.map(\.key) == ["k"])
    }

    @Test func malformedStringDefinitionIsAnErrorAndReadingGoesOn() throws {
        let library = Fixtures.library("@string{ACMCS = \"ACM Computing Surveys\" = \"ACM Comput. Surv.\"}\n@misc{k, journal = acmcs}")
        #expect(library.diagnostics.map(\.description) == [
            "test.bib:1:41: error: expected ',' or '}' after the value of @string 'ACMCS', found '='",
        ])
        #expect(try #require(library.entries.first).raw("journal") == "ACM Computing Surveys")
    }

    @Test func bibDeskInfoIsDocumentMetadataNotAReference() {
        let library = Fixtures.library("""
        @bibdesk_info{document_info,
            Sort-Order = {Author}}
        @misc{k, title = {T}}
        """)
        #expect(library.entries.map(\.key) == ["k"])
        #expect(library.files[0].documentInfo["Sort-Order"] == "Author")
    }

    @Test func undefinedMacroIsAWarningAndStaysVisible() throws {
        let library = Fixtures.library("@misc{k,\n  note = ack-dgk}")
        let entry = try #require(library.entries.first)
        #expect(entry.raw("note") == "ack-dgk")
        #expect(library.diagnostics.map(\.description) == ["test.bib:2:10: warning: undefined @string 'ack-dgk', kept as text"])
    }

    @Test func syntaxErrorIsReportedWithLineAndColumnAndTheNextEntrySurvives() throws {
        let library = Fixtures.library("""
        @article{broken,
          title = {Fine},
          author  {Missing equals},
        }
        @book{after, title = {Still here}}
        """)
        #expect(library.diagnostics.map(\.description) == ["test.bib:3:11: error: expected '=' after 'author', found '{'"])
        #expect(try #require(library.entry(addressedBy: "after")).raw("title") == "Still here")
        // What was read before the error is kept.
        #expect(try #require(library.entry(addressedBy: "broken")).raw("title") == "Fine")
    }

    @Test func unterminatedValueStopsAtTheNextEntry() throws {
        let library = Fixtures.library("""
        @article{open,
          title = {Never {closed,
          year = 2001
        }

        @book{next, title = {Found}}
        """)
        #expect(library.errorCount == 1)
        #expect(library.diagnostics.first?.description == "test.bib:2:11: error: unterminated value: the '{' opened here is not closed before the next entry")
        #expect(try #require(library.entry(addressedBy: "next")).raw("title") == "Found")
    }

    @Test func missingClosingBraceBeforeNextEntry() throws {
        let library = Fixtures.library("@misc{a, title = {A},\n@misc{b, title = {B}}")
        #expect(library.diagnostics.map(\.description) == ["test.bib:1:6: error: @misc{a: this '{' is never closed: the next entry starts at 2:1"])
        #expect(library.entries.map(\.key) == ["a", "b"])
    }

    /// A value whose brace is never closed runs on until the entry's own `}` closes it; the
    /// error is where it opened, not at the next entry lines later.
    @Test func unclosedBraceIsReportedWhereItOpened() throws {
        let library = Fixtures.library("""
        @article{a,
          title = {An open brace here,
          year = 2001,
        }

        @article{b, title = {Fine}}
        """)
        #expect(library.diagnostics.map(\.description) == ["test.bib:2:11: error: this '{' is never closed: its value takes in 'year' on line 3 and runs on to 4:1"])
        #expect(try #require(library.entry(addressedBy: "b")).raw("title") == "Fine")
        #expect(library.entries.map(\.key) == ["a", "b"])
    }

    @Test(arguments: [
        ("@misc{a,\n  note = {open,\n  year = 2001,\n},\n@misc{b, title = {B}}\n", "test.bib:2:10: error: this '{' is never closed: its value takes in 'year' on line 3 and runs on to 4:1"),
        ("@misc{a,\n  note = {open,\n  year = 2001,\n}\n", "test.bib:2:10: error: this '{' is never closed: its value takes in 'year' on line 3 and runs on to 4:1"),
        ("@misc{a,\n  note = \"open,\n  year = 2001,\n}\n@misc{b, title = {B}}\n", "test.bib:2:10: error: this '\"' is never closed: its value takes in 'year' on line 3 and runs on to 4:1"),
    ])
    func unclosedDelimiterBeforeACommaTheEndOrInQuotes(_ input: String, _ expected: String) {
        let library = Fixtures.library(input)
        #expect(library.diagnostics.map(\.description) == [expected])
        #expect(library.entries.first?.key == "a")
    }

    @Test func unterminatedEntryAtEndOfFile() {
        let library = Fixtures.library("@misc{a, title = {A}")
        #expect(library.diagnostics.map(\.description) == ["test.bib:1:6: error: @misc{a: this '{' is never closed: the file ends first"])
        #expect(library.entries.map(\.key) == ["a"])
    }

    @Test func commentedOutEntriesAreSkipped() {
        let library = Fixtures.library("%@book{gone, title = {x}\n%}\n@book{kept, title = {y}}")
        #expect(library.entries.map(\.key) == ["kept"])
        #expect(library.diagnostics.isEmpty)
    }

    @Test func duplicateKeysWarnAndBothStayAddressable() throws {
        let library = Fixtures.library("@misc{Dup, title = {First}}\n@misc{dup, title = {Second}}")
        #expect(library.diagnostics.map(\.description) == [
            "test.bib:2:1: warning: duplicate key 'dup' (first defined at test.bib:1); this one is addressable as 'dup#2'",
        ])
        #expect(try #require(library.entry(addressedBy: "dup")).raw("title") == "First")
        #expect(try #require(library.entry(addressedBy: "DUP#2")).raw("title") == "Second")
        #expect(library.entries(withKey: "DUP").count == 2)
    }

    /// A large library's keys are indexed on two threads (by the last byte of the folded key):
    /// duplicates, across parts and in any case, are found and numbered in file order.
    @Test func duplicateKeysOfALargeLibraryAreNumberedInFileOrder() throws {
        var text = ""
        var expected: [String] = []  // each entry's address, computed here
        var seen: [String: Int] = [:]
        for index in 0..<12_000 {
            // Every fifth entry repeats the key of an entry 2,000 earlier, in capitals; every
            // 997th, the key of the first entry.
            let base = index % 5 == 4 && index >= 2_000 ? "Key\(index - 2_000)" : index % 997 == 996 ? "k\u{C9}y0" : "key\(index)"
            let key = index % 5 == 4 && index >= 2_000 ? base.uppercased() : index == 0 ? "k\u{E9}y0" : base
            text += "@misc{\(key), title = {T\(index)}}\n"
            let folded = key.lowercased()
            let occurrence = (seen[folded] ?? 0) + 1
            seen[folded] = occurrence
            expected.append(occurrence == 1 ? key : "\(key)#\(occurrence)")
        }
        let library = Fixtures.library(text)
        #expect(library.entries.count >= 8192, "large enough to be indexed on two threads")
        #expect(library.entries.map(\.address) == expected)
        let warnings = library.diagnostics.filter { $0.message.hasPrefix("duplicate key") }
        #expect(warnings.count == expected.count { $0.contains("#") })
        #expect(warnings.map(\.location.line) == warnings.map(\.location.line).sorted())
        #expect(library.entries(withKey: "KÉY0").map(\.line) == [1] + (0..<12_000).filter { $0 % 997 == 996 && !($0 % 5 == 4 && $0 >= 2_000) }.map { $0 + 1 })
        #expect(library.entry(addressedBy: "Key9#2")?.raw("title") == "T2009")
        #expect(library.entries(withKey: "key7").count == 1)
    }

    @Test func duplicateFieldKeepsTheFirstValue() throws {
        let library = Fixtures.library("@misc{k, title = {One}, Title = {Two}}")
        #expect(try #require(library.entries.first).raw("title") == "One")
        #expect(library.diagnostics.map(\.description) == ["test.bib:1:25: warning: @misc{k: duplicate field 'Title', the first value is kept"])
    }

    @Test func missingKeyIsAWarningAndTheFieldsAreRead() throws {
        let library = Fixtures.library("@article{\n  author = {Huang, Y.},\n  title = {T}}")
        let entry = try #require(library.entries.first)
        #expect(entry.key == "")
        #expect(entry.raw("title") == "T")
        #expect(library.diagnostics.map(\.description) == ["test.bib:2:3: warning: @article has no cite key"])
    }

    @Test func columnsCountCharactersNotBytes() {
        let library = Fixtures.library("@misc{k, title = {Gödel}, note = @}")
        #expect(library.diagnostics.first?.location == SourceLocation(line: 1, column: 34))
    }

    /// Names (entry types, fields, macros) are runs of printable bytes but BibTeX's specials.
    @Test func identifierBytesAreThePrintableOnesButBibTeXSpecials() {
        let specials = Set("\"#%'(),={}@".utf8)
        for byte in UInt8.min...UInt8.max {
            let expected = byte >= 0x80 || (byte > 0x20 && byte != 0x7F && !specials.contains(byte))
            #expect(isIdentifierByte(byte) == expected, "byte \(byte)")
        }
    }

    @Test func severalFilesShareMacrosInOrder() throws {
        let library = Library.parse([
            (path: "strings.bib", bytes: Array("@string{j = {Journal}}".utf8)),
            (path: "refs.bib", bytes: Array("@article{k, journal = j}".utf8)),
        ])
        #expect(try #require(library.entries.first).raw("journal") == "Journal")
        #expect(library.files.map(\.source.path) == ["strings.bib", "refs.bib"])
    }
}

@Suite("month macros")
struct MonthMacroTests {
    @Test func theTwelveLowerCaseNamesAreMonthsAndNothingElse() {
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        for month in months { #expect(MacroTable.isMonth(month), "\(month)") }
        for other in ["", "ja", "janu", "january", "Jan", "JAN", "dez", "sept", "mai", "month", "jan "] {
            #expect(!MacroTable.isMonth(other), "\(other)")
        }
    }

    /// A macro's value is remembered by the parser between uses: each use must still see the
    /// definition in force at that point, whatever the spelling.
    @Test func eachUseSeesTheDefinitionInForceThere() {
        let library = Fixtures.library("""
            @misc{a, journal = jn}
            @string{jn = {First}}
            @misc{b, journal = jn, note = JN}
            @string{JN = {Second}}
            @misc{c, journal = Jn, note = jn}
            @string{nov = {Nov.}}
            @misc{d, month = nov, note = NOV}
            @string{other = {x}}
            @misc{e, journal = jn, month = nov}
            """)
        func raw(_ key: String, _ field: String) -> String? { library.entry(addressedBy: key)?.raw(field) }
        #expect(raw("a", "journal") == "jn")
        #expect(raw("b", "journal") == "First")
        #expect(raw("b", "note") == "First")
        #expect(raw("c", "journal") == "Second")
        #expect(raw("c", "note") == "Second")
        #expect(raw("d", "month") == "Nov.")
        #expect(raw("d", "note") == "Nov.")
        #expect(raw("e", "journal") == "Second")
        #expect(raw("e", "month") == "Nov.")
    }

    @Test func aMacroWithANonASCIINameIsFoundAfterEachDefinition() {
        let library = Fixtures.library("@misc{a, note = är}\n@string{är = {one}}\n@misc{b, note = är}\n@string{ÄR = {two}}\n@misc{c, note = är}")
        #expect(library.entry(addressedBy: "a")?.raw("note") == "är")
        #expect(library.entry(addressedBy: "b")?.raw("note") == "one")
        #expect(library.entry(addressedBy: "c")?.raw("note") == "two")
    }

    @Test func redefiningAMonthIsQuietAndAnyOtherStringIsAWarning() {
        let library = Fixtures.library("@string{nov = {Nov.}}\n@string{foo = {a}}\n@string{FOO = {b}}\n@misc{k, month = nov, note = foo}")
        #expect(library.diagnostics.map(\.description) == ["test.bib:3:9: warning: @string 'FOO' redefined"])
        #expect(library.entry(addressedBy: "k")?.raw("month") == "Nov.")
    }
}

@Suite("crossref")
struct CrossrefTests {
    @Test func missingFieldsComeFromTheParentAndBooktitleFromItsTitle() throws {
        let library = Fixtures.library("""
        @inproceedings{child, title = {Paper}, crossref = {Proc}, pages = {1--10}}
        @proceedings{proc, title = {Proceedings of X}, year = 2001, publisher = {ACM}, Bdsk-File-1 = {abc}}
        """)
        let child = try #require(library.entry(addressedBy: "child"))
        #expect(child.raw("title") == "Paper")
        #expect(child.raw("booktitle") == "Proceedings of X")
        #expect(child.raw("year") == "2001")
        #expect(child.raw("publisher") == "ACM")
        #expect(child.raw("bdsk-file-1") == nil, "linked files are never inherited")
        #expect(child.field("year").map { child.parent(of: $0) } == "proc")
        #expect(child.citation == "In Proceedings of X, pp. 1–10, 2001")
    }

    @Test func chainsInheritThroughEveryLevel() throws {
        let library = Fixtures.library("""
        @misc{a, crossref = {b}}
        @misc{b, crossref = {c}, publisher = {from b}}
        @misc{c, year = 1999}
        """)
        let entry = try #require(library.entry(addressedBy: "a"))
        #expect(entry.raw("publisher") == "from b")
        #expect(entry.raw("year") == "1999")
    }

    @Test func missingParentIsAWarning() {
        let library = Fixtures.library("@misc{a,\n  crossref = {nowhere}}")
        #expect(library.diagnostics.map(\.description) == ["test.bib:2:3: warning: a: crossref 'nowhere' not found"])
    }

    @Test func cyclesAreWarningsAndStop() throws {
        let library = Fixtures.library("@misc{a, crossref = {b}, publisher = {A}}\n@misc{b, crossref = {a}, year = 2000}")
        #expect(library.diagnostics.map(\.description) == ["test.bib:1:1: warning: a: crossref cycle through 'b'; inheritance stops here"])
        // The link that closes the cycle is dropped; the other still inherits.
        #expect(try #require(library.entry(addressedBy: "a")).raw("year") == nil)
        #expect(try #require(library.entry(addressedBy: "b")).raw("publisher") == "A")
    }

    @Test func namesAreComparedIgnoringCaseAndEachIsInheritedOnce() throws {
        let library = Fixtures.library("""
        @book{child, Year = {2000}, crossref = {parent}}
        @book{parent, year = 1999, Publisher = {First}, publisher = {Second}, Series = {S}}
        """)
        let child = try #require(library.entry(addressedBy: "child"))
        #expect(child.raw("year") == "2000")
        #expect(child.fields.filter { child.name(of: $0) == "publisher" }.count == 1)
        #expect(child.raw("publisher") == "First")
        #expect(child.field("series").map(child.spelledName(of:)) == "Series")
    }

    @Test func aParentInAnotherFileGivesNamesTheChildsFileDoesNotHave() throws {
        let library = Library.parse([
            (path: "children.bib", bytes: Array("@inproceedings{child, TITLE = {Paper}, crossref = {proc}, YEAR = 2001}".utf8)),
            (path: "parents.bib", bytes: Array("@proceedings{proc, title = {Proc}, year = 1999, Organization = {Org}, file = {p.pdf}}".utf8)),
        ])
        let child = try #require(library.entry(addressedBy: "child"))
        #expect(child.raw("year") == "2001", "a name is the same name in every file, whatever its case")
        #expect(child.raw("organization") == "Org")
        #expect(child.field("organization").map(child.spelledName(of:)) == "Organization")
        #expect(child.field("organization").map { child.parent(of: $0) } == "proc")
        #expect(child.raw("booktitle") == "Proc")
        #expect(child.raw("file") == nil, "linked files are never inherited")
        #expect(child.fields.count == 5)
    }

    @Test func childrenWithManyFieldsInheritOnlyWhatTheyLack() throws {
        // More fields than a short list holds: the child's names are then kept in a hash set.
        let own = (0..<40).map { "own\($0) = {c\($0)}" }.joined(separator: ", ")
        let parents = (0..<60).map { "\($0 < 40 ? "Own" : "extra")\($0) = {p\($0)}" }.joined(separator: ", ")
        let library = Fixtures.library("@misc{child, \(own), crossref = {parent}}\n@misc{parent, \(parents)}")
        let child = try #require(library.entry(addressedBy: "child"))
        #expect(child.raw("own0") == "c0")
        #expect(child.raw("own39") == "c39")
        #expect(child.raw("extra40") == "p40")
        #expect(child.raw("extra59") == "p59")
        #expect(child.fields.count == 40 + 1 + 20)
    }

    @Test(arguments: CrossrefResolver.notInherited.sorted() + ["bdsk-url-1", "Bdsk-File-2", "BDSK-custom"])
    func bookkeepingFieldsAreNeverInherited(name: String) throws {
        let library = Fixtures.library("@misc{child, crossref = {parent}}\n@misc{parent, \(name) = {x}, year = 2000}")
        let child = try #require(library.entry(addressedBy: "child"))
        #expect(child.raw("year") == "2000")
        #expect(child.fields.filter { child.name(of: $0) == name.lowercased() && $0.isInherited }.isEmpty)
    }

    @Test func deepChainsDoNotOverflowTheStack() throws {
        var text = ""
        for index in 0..<10_000 { text += "@misc{e\(index), crossref = {e\(index + 1)}}\n" }
        text += "@misc{e10000, year = 1970}\n"
        let library = Fixtures.library(text)
        #expect(try #require(library.entry(addressedBy: "e0")).raw("year") == "1970")
        #expect(library.diagnostics.isEmpty)
    }
}
