import BibModel
import Testing
import BibreadTestSupport

@Suite("citation lines")
struct CitationTests {
    /// (entry, expected citation)
    static let cases: [(String, String)] = [
        ("@article{k, journal = {Journal}, volume = 12, number = 3, pages = {45--67}, year = 1984}", "Journal 12(3):45–67, 1984"),
        ("@article{k, journal = {Journal}, volume = 12, pages = {45--67}, year = 1984}", "Journal 12:45–67, 1984"),
        ("@article{k, journal = {Journal}, year = 1984}", "Journal, 1984"),
        ("@article{k, journal = {Journal}, pages = {7}, year = 1984}", "Journal, p. 7, 1984"),
        ("@inproceedings{k, booktitle = {Booktitle}, pages = {1--10}, year = 2001}", "In Booktitle, pp. 1–10, 2001"),
        ("@incollection{k, booktitle = {Collected Works}, year = 2001}", "In Collected Works, 2001"),
        ("@book{k, publisher = {Addison-Wesley}, year = 1984}", "Addison-Wesley, 1984"),
        ("@phdthesis{k, school = {School}, year = 2015}", "PhD thesis, School, 2015"),
        ("@mastersthesis{k, school = {School}, year = 2015}", "Master's thesis, School, 2015"),
        ("@thesis{k, type = {phdthesis}, institution = {ETH}, date = {2015-03-01}}", "PhD thesis, ETH, 2015"),
        ("@techreport{k, institution = {Stanford}, number = {CS-1}, year = 1983}", "Technical report CS-1, Stanford, 1983"),
        ("@misc{k, howpublished = {Lecture notes}, year = 2019}", "Lecture notes, 2019"),
        ("@online{k, url = {https://example.org/x}, date = {2021-05-04}}", "https://example.org/x, 2021"),
        ("@misc{k, eprint = {2309.06784}, archivePrefix = {arXiv}, year = 2023}", "arXiv:2309.06784, 2023"),
        ("@article{k, journal = {arXiv preprint}, eprint = {2309.06784}, eprinttype = {arxiv}}", "arXiv:2309.06784"),
        ("@manual{k, organization = {CTAN}, edition = {2nd}, year = 2020}", "CTAN, 2nd edition, 2020"),
        ("@unpublished{k, note = {Draft}, year = 2020}", "Draft, 2020"),
        ("@misc{k}", ""),
    ]

    @Test(arguments: cases)
    func citation(_ input: String, _ expected: String) throws {
        let entry = try #require(Fixtures.library(input).entries.first)
        #expect(entry.citation == expected)
    }

    @Test func yearFallsBackToDate() throws {
        let entry = try #require(Fixtures.library("@online{k, date = {2021-05-04}}").entries.first)
        #expect(entry.year == "2021")
    }
}

@Suite("an entry written back as BibTeX")
struct EntryBibTeXTests {
    @Test func fieldsMacrosAndCrossrefComeBackAsBraceValues() throws {
        let library = Fixtures.library("""
            @string{tugb = "TUGboat"}
            @proceedings{conf, title = {Proceedings of {TeX} 84}, year = 1984}
            @inproceedings{Knuth84, author = {Donald E. Knuth}, title = {Literate {P}rogramming},
              journal = tugb, pages = {97--111}, crossref = {conf}}
            """)
        let entry = try #require(library.entries(withKey: "knuth84").first)
        #expect(entry.bibTeX == """
            @inproceedings{Knuth84,
              author = {Donald E. Knuth},
              title = {Literate {P}rogramming},
              journal = {TUGboat},
              pages = {97--111},
              crossref = {conf},
              year = 1984,
              booktitle = {Proceedings of {TeX} 84},
            }
            """)
        // It reads back as the same reference.
        let again = try #require(Fixtures.library(entry.bibTeX).entries.first)
        #expect(again.title == entry.title)
        #expect(again.decoded("journal") == "TUGboat")
    }
}
