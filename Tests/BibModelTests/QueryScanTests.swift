import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// The one-shot search (`QueryScan`, which reads the fields a query names) and the search-as-
/// you-type index (`SearchIndex`) give the same answers: on every file of the corpora read as one
/// library, and on hostile text.
@Suite("query scan against the index")
struct QueryScanTests {
    /// Every kind of term, on fields that index under another name too, and words as typed.
    static let queries: [String] = [
        "knuth", "a:knuth", "author:knuth title:tex -year:<1980", "author:knuth tex -errata year:1984..1990",
        "(a:lamport OR a:knuth) t:\"document preparation\" NOT kw:draft year:>1980", "quantum \"dynamic programming\" | godel",
        "t", "a", "e", "1", "z", "t:th", "a:van", "editor:knuth", "e:x", "journal:tug", "booktitle:proc", "journaltitle:j",
        "j:acm", "key:knuth", "k:a", "type:article", "type:in", "-type:article", "kw:tex", "keywords:", "y:19", "year:2000..2010",
        "year:>=2020", "year:..1900", "volume:1..10", "pages:<100", "number:>3", "\"the art\"", "t:\"the art of\"",
        "a:\"van der\"", "\"of the\" -\"in the\"", "godel", "Gödel", #"G{\"o}del"#, "erdős", "straße", "lukasiewicz", "山田",
        "日本", "müller | muller", "url:http", "doi:10", "file:pdf", "bdsk", "crossref:a", "note:see", "abstract:we",
        "x y z", "NOT a", "-t -a", "(t:a | t:b) (a:c | a:d) -(y:1 | y:2)", "c++", "o'brien", "über", "ångström", "ß",
        // Phrases as the reader types them (closed as typed), over words common in many fields:
        // the index reads only the fields that hold all their words.
        "quantum \"dynamic p\"", "\"dynamic p\"", "\"dynamic pr\"", "\"the a\"", "\"of the a\"", "\"a b\"", "\"knuth t\"",
        "\"in p\" | \"of t\"", "\"j a\"", "\"1 2\"", "-\"the a\" \"of t\"",
    ]

    /// Every prefix of these, as when typing them.
    static let typed = [#"author:knuth tex -errata year:1984..1990 "dynamic programming" (a OR b)"#, "t:\"a b\" | kw:c"]

    static let allQueries: [Query] = (queries + typed.flatMap { text in (1...text.count).map { String(text.prefix($0)) } })
        .compactMap { try? Query(parsing: $0) }

    @Test func theCorporaAsOneLibrary() throws {
        let paths = Fixtures.corpusBibFiles.map(\.path)
        try #require(paths.count > 100, "the corpora are missing: \(Fixtures.corpora.path)")
        let library = LibraryLoader.load(paths: paths).library
        try #require(library.entries.count > 40_000)
        // The typed prefixes are left to the hostile text: on 46k references they only repeat these.
        Self.compare(library, queries: Self.queries.compactMap { try? Query(parsing: $0) })
    }

    @Test func hostileText() {
        let text = #"""
            @string{k = "Kn{\"u}th"}
            @book{key, key = {Sort Key}, type = {Habilitation}, author = k # " and van der Berg", title = {T{\'e}X -- {\TeX}book},
              year = {1984a}, booktitle = {Proc. ACM}, editor = {Ed Editor}, volume = 12, pages = {12--34}}
            @article{combining, title = "e\#u{301}t\#u{E9} Cafe\#u{301} \#u{1F600} ｆｕｌｌ", author = {{\L}ukasiewicz and M{\"u}ller},
              journal = {Stra{\ss}e}, year = 1999}
            @misc{hangul, title = {가나다 한국어 ㄱ ᄀ}, note = {Ａ ß ẞ İstanbul ǅ ﬁ ﬀ}, year = {}, keywords = {c++; o'brien}}
            @misc{empty, title = {}, author = {}, year = {-12}}
            @misc{dup, title = {first title}, title = {second title}, year = 2001, year = 1900}
            @misc{child, crossref = {parent}, title = {child}}
            @proceedings{parent, booktitle = {Parent Proceedings}, year = 1980, editor = {Parent Editor}}
            @misc{bdsk, Bdsk-File-1 = {YnBsaXN0MDA=}, title = {with a file}, Year = 9223372036854775807}
            @misc{long, title = {\$\&{\_}\%\{\}\\ $x^2$ \url{http://e.org/a_b} \emph{\textbf{bold}} ~ a~b --- c}}
            @inproceedings{repeats, title = {Tex TEX tex T{\'e}X t\'ex TeX-tex}, booktitle = {tex Proc tex}, journal = {Proc tex},
              journaltitle = {proc}, editor = {Tex Tex}, author = {Tex and T{\'e}x}, note = {G{\"o}del G\"odel gödel Gödel GÖDEL},
              url = {http://tex.org/tex\_tex}, doi = {tex}, keywords = {tex, tex; tex}}

            """#
        let big = "@misc{big, abstract = {" + String(repeating: "word tex knuth ", count: 5_000) + "}}\n"
        // Enough copies that the index is built in parts on several threads and joined; the
        // last part has words of its own.
        let library = Fixtures.library(String(repeating: text, count: 1_000) + big)
        #expect(library.entries.count > 8192)
        let extra = ["kn", "ku", "van der", "\"van der berg\"", "t:te", "t:\"tex book\"", "t:\"texbook\"", "e", "et", "ete", "cafe",
                     "cafe\u{301}", "😀", "full", "ｆ", "가", "ᄀ", "ㄱ", "한국", "ss", "strasse", "istanbul", "i", "fi", "ff",
                     "dz", "c", "brien", "o", "year:<0", "year:-12", "year:1984", "year:1900", "year:2001", "key:sort",
                     "type:habil", "type:book", "journal:parent", "a:parent", "editor:ed", "t:child", "abstract:\"tex knuth word\"",
                     "x", "2", "b", "\"a b\"", "emph", "bold", "url:e.org", "http",
                     "tex", "t:tex", "t:\"tex tex\"", "t:\"tex tex tex tex\"", "journal:tex", "j:proc", "j:\"proc tex\"",
                     "booktitle:tex", "a:tex", "editor:tex", "note:godel", "note:\"godel godel\"", "url:tex", "doi:tex",
                     "kw:\"tex tex\"", "-tex", "tex -t:tex", "key:repeats",
                     // Phrases whose words lie in several fields, or in one field of several names.
                     "\"tex p\"", "\"proc t\"", "\"tex proc\"", "\"sort key h\"", "\"parent p\"", "\"parent e\"",
                     "\"ed e\"", "\"tex and t\"", "\"first t\"", "\"title s\"", "\"knuth v\"", "\"van der b\"", "\"child p\""]
        let queries = Self.allQueries + extra.compactMap { try? Query(parsing: $0) }
        Self.compare(library, queries: queries)
    }

    /// The scan's answer is the index's for every query.
    static func compare(_ library: Library, queries: [Query] = allQueries, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let index = SearchIndex(entries: library.entries)
        for query in queries {
            let scanned = QueryScan.search(query, in: library.entries)
            let indexed = index.search(query)
            #expect(scanned == indexed, "\(query): the scan finds \(scanned.count), the index \(indexed.count)", sourceLocation: sourceLocation)
        }
    }
}
