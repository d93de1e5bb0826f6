import BibModel
import Testing
import BibreadTestSupport

@Suite("query language")
struct QueryTests {
    /// (query, parsed form)
    static let grammar: [(String, Query)] = [
        ("", .all),
        ("knuth", .words(field: nil, ["knuth"])),
        ("Knuth TeX", .and([.words(field: nil, ["knuth"]), .words(field: nil, ["tex"])])),
        ("knuth OR lamport", .or([.words(field: nil, ["knuth"]), .words(field: nil, ["lamport"])])),
        ("knuth | lamport", .or([.words(field: nil, ["knuth"]), .words(field: nil, ["lamport"])])),
        ("-errata", .not(.words(field: nil, ["errata"]))),
        ("NOT errata", .not(.words(field: nil, ["errata"]))),
        ("knuth AND tex", .and([.words(field: nil, ["knuth"]), .words(field: nil, ["tex"])])),
        (#""dynamic programming""#, .phrase(field: nil, ["dynamic", "programming"])),
        ("a:knuth", .words(field: "author", ["knuth"])),
        ("t:tex y:1984 k:knuth84 kw:fonts j:tugboat", .and([
            .words(field: "title", ["tex"]), .range(field: "year", lower: nil, upper: nil),
            .words(field: "key", ["knuth84"]), .words(field: "keywords", ["fonts"]), .words(field: "journal", ["tugboat"]),
        ])),
        ("publisher:addison", .words(field: "publisher", ["addison"])),
        ("year:1990..2000", .range(field: "year", lower: 1990, upper: 2000)),
        ("year:>2010", .range(field: "year", lower: 2011, upper: nil)),
        ("year:>=2010", .range(field: "year", lower: 2010, upper: nil)),
        ("year:<2000", .range(field: "year", lower: nil, upper: 1999)),
        ("year:..1950", .range(field: "year", lower: nil, upper: 1950)),
        ("(a:knuth | a:lamport) -t:errata", .and([
            .or([.words(field: "author", ["knuth"]), .words(field: "author", ["lamport"])]),
            .not(.words(field: "title", ["errata"])),
        ])),
        (#"G{\"o}del"#, .words(field: nil, ["godel"])),
        ("Gödel", .words(field: nil, ["godel"])),
        ("knuth -", .words(field: nil, ["knuth"])),
        ("knuth & tex", .and([.words(field: nil, ["knuth"]), .words(field: nil, ["tex"])])),
        ("a:\"van der\"", .phrase(field: "author", ["van", "der"])),
    ]

    @Test(arguments: grammar)
    func parses(_ text: String, _ expected: Query) throws {
        var expected = expected
        // `y:1984` is a single word, not a range.
        if text.hasPrefix("t:tex") {
            expected = .and([.words(field: "title", ["tex"]), .words(field: "year", ["1984"]), .words(field: "key", ["knuth84"]),
                             .words(field: "keywords", ["fonts"]), .words(field: "journal", ["tugboat"])])
        }
        #expect(try Query(parsing: text) == expected)
    }

    /// (query, column, message)
    static let errors: [(String, Int, String)] = [
        (#"title:"unclosed"#, 7, "this quote is never closed"),
        ("(knuth", 1, "this '(' is never closed"),
        ("knuth)", 6, "this ')' has no '(' before it"),
        ("knuth OR", 7, "'OR' needs a term after it"),
        ("NOT", 1, "'-' or 'NOT' needs a term after it"),
        ("author: knuth", 7, "'author:' needs a value after it"),
        ("year:2000..1990", 6, "the range 2000..1990 is empty"),
        ("year:>abc", 7, "'abc' is not a number"),
        ("year:>", 6, "'>' needs a number after it"),
        ("year:19x0..2000", 6, "'19x0' is not a number"),
        ("()", 2, "expected a search term"),
    ]

    @Test(arguments: errors)
    func malformedQueriesPointAtTheProblem(_ text: String, _ column: Int, _ message: String) {
        #expect(throws: QueryError(column: column, message: message)) { try Query(parsing: text) }
    }

    static let folding: [(String, String)] = [
        ("Gödel", "godel"), ("ERDŐS", "erdos"), ("Straße", "strasse"), ("Łukasiewicz", "lukasiewicz"),
        ("Øystein Ore", "oystein ore"), ("Æsop", "aesop"), ("Ångström", "angstrom"), ("Dvořák", "dvorak"),
        ("naïve café", "naive cafe"), ("山田", "山田"), ("TeX", "tex"),
    ]

    @Test(arguments: folding)
    func foldsCaseAndDiacritics(_ text: String, _ expected: String) {
        #expect(Folding.fold(text) == expected)
    }
}

@Suite("search")
struct SearchTests {
    private static let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
    private static let index = SearchIndex(entries: library.entries)

    private func keys(_ query: String) throws -> [String] {
        try SearchTests.index.search(Query(parsing: query)).map { SearchTests.index.entries[$0].key }
    }

    /// (query, expected keys in library order)
    static let cases: [(String, [String])] = [
        ("godel", ["goedel1931formal"]),
        ("Gödel", ["goedel1931formal"]),
        (#"G{\"o}del"#, ["goedel1931formal"]),
        ("erdos renyi", ["erdos1959random"]),
        ("a:knuth", ["knuth1981breaking", "knuth1984texbook", "knuth1983web"]),
        ("a:knuth -t:texbook", ["knuth1981breaking", "knuth1983web"]),
        ("a:knuth NOT texbook", ["knuth1981breaking", "knuth1983web"]),
        ("a:knu", ["knuth1981breaking", "knuth1984texbook", "knuth1983web"]),
        ("a:dijkstra | a:shannon", ["dijkstra1959note", "shannon1948mathematical"]),
        ("year:1930..1940", ["goedel1931formal", "turing1936computable"]),
        ("year:<1936", ["goedel1931formal"]),
        ("t:\"document preparation\"", ["lamport1994latex"]),
        ("t:\"preparation document\"", []),
        ("k:knuth1984", ["knuth1984texbook"]),
        ("a:\"van der\"", ["vanderberg2018hyphenation", "vanderaalst1998petri"]),
        ("山田", ["yamada2019kinsoku"]),
        ("(a:knuth OR a:lamport) t:tex", ["knuth1984texbook"]),
        ("type:phdthesis", ["plass1981optimal"]),
        ("zzzzzz", []),
    ]

    @Test(arguments: cases)
    func finds(_ query: String, _ expected: [String]) throws {
        #expect(try keys(query) == expected)
    }

    @Test func emptyQueryFindsEverything() throws {
        #expect(try keys("").count == SearchTests.library.entries.count)
    }

    @Test func everyPrefixOfATypedQueryParsesOrFailsCleanly() {
        let typed = #"author:knuth tex -errata year:1984..1990 "dynamic programming" (a OR b)"#
        var results = 0
        for length in 0...typed.count {
            let prefix = String(typed.prefix(length))
            if let query = try? Query(parsing: prefix) {
                results += SearchTests.index.count(query) >= 0 ? 1 : 0
            }
        }
        #expect(results > typed.count / 2)
    }
}

/// `text:` terms go to the full-text index and combine with the rest of the query.
@Suite("text: terms")
struct FullTextTermTests {
    /// Answers from a fixed table, as the PDFs' index would.
    struct TableMatcher: FullTextMatching {
        let table: [FullTextTerm: Set<Int>]
        func entries(matching term: FullTextTerm) -> Set<Int> { table[term] ?? [] }
    }

    let library = Fixtures.library("""
        @book{knuth84, author = {Donald Knuth}, title = {The TeXbook}, year = 1984}
        @article{bellman57, author = {Richard Bellman}, title = {Dynamic Programming}, year = 1957}
        @article{knuth77, author = {Donald Knuth}, title = {Fast pattern matching}, year = 1977}
        """)

    @Test func textTermsAreParsedOnceEachAndCombineWithFields() throws {
        let query = try Query(parsing: #"author:knuth text:"dynamic programming" -text:errata text:dynamic"#)
        #expect(query.fullTextTerms == [FullTextTerm(words: ["dynamic", "programming"], isPhrase: true),
                                        FullTextTerm(words: ["errata"], isPhrase: false),
                                        FullTextTerm(words: ["dynamic"], isPhrase: false)])
        let index = SearchIndex(entries: library.entries)
        let matcher = TableMatcher(table: [FullTextTerm(words: ["dynamic", "programming"], isPhrase: true): [0, 1, 2],
                                           FullTextTerm(words: ["errata"], isPhrase: false): [2],
                                           FullTextTerm(words: ["dynamic"], isPhrase: false): [0, 1, 2]])
        #expect(index.search(query, fullText: matcher) == [0])
        // Without an index, text terms match nothing (and NOT text: everything).
        #expect(index.search(try Query(parsing: "text:dynamic")).isEmpty)
        #expect(index.search(try Query(parsing: "-text:dynamic")) == [0, 1, 2])
        #expect(index.search(try Query(parsing: "text:dynamic | author:bellman"), fullText: TableMatcher(table: [:])) == [1])
    }
}
