import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// The order of the reference list.
@Suite("Sort order")
struct SortOrderTests {
    /// One person spelled with and without a period after an initial (`Michael H` and
    /// `Michael H.`), or with other punctuation and case, sorts as one person, by year.
    @Test func onePersonSpelledTwoWaysSortsTogetherByYear() {
        let library = Fixtures.library("""
            @article{g2019, author = {Goerz, Michael H}, year = 2019, title = {C}}
            @article{z2000, author = {Zeta, Anna}, year = 2000, title = {Z}}
            @article{g2015, author = {Goerz, Michael H.}, year = 2015, title = {A}}
            @article{a2001, author = {Adams, Bo}, year = 2001, title = {X}}
            @article{g2017, author = {Goerz, Michael H}, year = 2017, title = {B}}
            @article{g2021, author = {Michael H. Goerz and Zeta, Anna}, year = 2021, title = {D}}
            @article{gm1999, author = {Goerz, M.}, year = 1999, title = {E}}
            @article{g2016, author = {GOERZ, MICHAEL H.}, year = 2016, title = {F}}
            """)
        let rank = SortOrder.rank(library.entries, by: .author)
        let sorted = library.entries.indices.sorted { rank[$0] < rank[$1] }.map { library.entries[$0].key }
        #expect(sorted == ["a2001", "gm1999", "g2015", "g2016", "g2017", "g2019", "g2021", "z2000"])
    }

    /// A last name with accents or a von part sorts with its plain spelling; entries with no
    /// authors go last.
    @Test func accentsAndMissingAuthors() {
        let library = Fixtures.library("""
            @misc{none, title = {No author}, year = 1990}
            @misc{erdos2, author = {Erdős, Paul}, year = 1960}
            @misc{erdos1, author = {Erdos, Paul}, year = 1959}
            @misc{aalst, author = {van der Aalst, Wil}, year = 1998}
            """)
        let rank = SortOrder.rank(library.entries, by: .author)
        let sorted = library.entries.indices.sorted { rank[$0] < rank[$1] }.map { library.entries[$0].key }
        #expect(sorted == ["aalst", "erdos1", "erdos2", "none"])
    }

    // MARK: - The sort by author against the straightforward one

    /// The sort by author as it was written first: every creator split and decoded, the keys
    /// compared as strings. `SortOrder.rank(_:by: .author)` must give exactly its order.
    static func straightforwardAuthorRank(_ entries: [Entry]) -> [Int32] {
        let keys = entries.map { entry -> (String, String, String) in
            guard let first = entry.creators.names.first else { return ("\u{10FFFF}", "", "") }
            return (SortOrder.normalizedName(first.last), SortOrder.normalizedName(first.first), SortOrder.normalizedName(first.von))
        }
        let years = entries.map { entry in entry.year.flatMap { Int($0.prefix(4)) } ?? Int.max }
        let order = entries.indices.sorted {
            if keys[$0] != keys[$1] { return keys[$0] < keys[$1] }
            return years[$0] != years[$1] ? years[$0] < years[$1] : $0 < $1
        }
        var rank = [Int32](repeating: 0, count: entries.count)
        for (index, position) in order.enumerated() { rank[position] = Int32(index) }
        return rank
    }

    /// The list's rows ordered by counting (`RankSort.sorted`) are those of the comparison sort:
    /// every sort of the corpora, on all rows and on the matches of searches, both ways; and
    /// ranks with ties, spread out, at the extremes of Int32, few and many rows.
    @Test func rankSortIsTheComparisonSort() throws {
        let files = Fixtures.corpusBibFiles
        try #require(!files.isEmpty, "no corpus at \(Fixtures.corpora.path)")
        let entries = LibraryLoader.load(paths: files.map(\.path)).library.entries
        let index = SearchIndex(entries: entries)
        var rowSets = [Array(entries.indices), Array(entries.indices.reversed())]
        for query in ["a", "t", "d", "knuth", "\"dynamic p\"", "-a"] { rowSets.append(index.search(try Query(parsing: query))) }
        var ranks = SortKey.allCases.map { SortOrder.rank(entries, by: $0) }
        var generator = SystemRandomNumberGenerator()
        ranks.append(entries.indices.map { _ in Int32.random(in: 0..<50, using: &generator) })
        ranks.append(entries.indices.map { Int32($0 % 7) * 1000 })
        ranks.append(entries.indices.map { $0 % 2 == 0 ? Int32.min : Int32.max })
        ranks.append([Int32](repeating: 3, count: entries.count))
        for rank in ranks {
            for rows in rowSets + [[], [0], Array(0..<600).shuffled(using: &generator)] {
                for descending in [false, true] {
                    #expect(RankSort.sorted(rows, by: rank, descending: descending)
                        == RankSort.comparisonSorted(rows, by: rank, descending: descending))
                }
            }
        }
    }

    /// Every entry of the corpora in one library (the bench library is their concatenation).
    @Test func authorSortOfTheCorporaIsTheStraightforwardOne() throws {
        let files = Fixtures.corpusBibFiles
        try #require(!files.isEmpty, "no corpus at \(Fixtures.corpora.path)")
        let entries = LibraryLoader.load(paths: files.map(\.path)).library.entries
        #expect(entries.count > 40_000)
        #expect(SortOrder.rank(entries, by: .author) == Self.straightforwardAuthorRank(entries))
    }

    /// Names that fold to ASCII next to ones that do not (Cyrillic, CJK, Hangul in decomposed
    /// and composed form, a combining mark after an ASCII letter, one that folds to nothing, an
    /// ASCII last name with Cyrillic or Greek first names),
    /// entries with no creators or `others` alone, punctuation only, the same person in other
    /// spellings, years missing or odd, each compared with every other.
    @Test func authorSortOfHostileNamesIsTheStraightforwardOne() {
        let names = [
            "Knuth, Donald", "knuth, donald e.", "Knuth, Donald E", "KNUTH, D.", "Knuth", "van Knuth, Donald",
            "Ильин, Иван", "Ilin, Ivan", "李, 小龙", "\u{1100}\u{1161}\u{11A8}, A", "\u{AC01}, A", "\u{AC00}, B",
            "Gödel, Kurt", "G{\\\"o}del, Kurt", "Godel, Kurt", "Go\u{0308}del, Kurt", "Erdős, Pál", "Erdos, Pal",
            "{--}", "{.}, {,}", "others", "others and Zeta, A", "\u{10FFFF}, Z", "\u{FFFF}", "Zeta, A",
            "a\r\nb, c", "{\\relax}, x", "Ab, C D", "Ab C, D", "Ab, CD", "ab, c~d", "Øster, Åse", "Ooster, Ase",
            "Łukasiewicz, Jan", "Lukasiewicz, Jan", "Straße, Anna", "Strasse, Anna", "", "   ",
            // An ASCII last name with first names that are not: it sorts among the ASCII keys.
            "Knuth, Дональд", "Adams, 小龙", "Zeta, Αλφα", "Erdos, Pál Иван", "Zzyzx, Q",
        ]
        let years = ["1984", "", "19", "2001a", "{1984}", "0001", "9999"]
        var text = ""
        var number = 0
        for name in names {
            for year in years.prefix(3) {
                number += 1
                text += "@misc{k\(number), author = {\(name)}, year = {\(year)}}\n"
            }
            number += 1
            text += "@misc{e\(number), editor = {\(name)}, year = {\(years[number % years.count])}}\n"
        }
        text += "@misc{nobody, title = {T}}\n@misc{nobody2, title = {T}, year = 1900}\n"
        let entries = Fixtures.library(text).entries
        #expect(entries.count == names.count * 4 + 2)
        #expect(SortOrder.rank(entries, by: .author) == Self.straightforwardAuthorRank(entries))
        // Reversed, so that each pair is met in the other order too.
        let reversed = Array(entries.reversed())
        #expect(SortOrder.rank(reversed, by: .author) == Self.straightforwardAuthorRank(reversed))
        // Without the names that sort after every ASCII one, entries with no creators meet
        // ASCII names while the two runs are merged.
        let plain = entries.filter { entry in entry.firstCreator.map { !$0.last.unicodeScalars.contains { $0.value >= 0x80 } } ?? true }
        #expect(plain.count < entries.count)
        #expect(SortOrder.rank(plain, by: .author) == Self.straightforwardAuthorRank(plain))
    }
}
