import BibModel
import BibreadTestSupport
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
}
