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
        // Each way a part is left out or stands in for another.
        ("@article{k, journal = {J}, number = 4, pages = {3, 7}, year = 1990}", "J (4), pp. 3, 7, 1990"),
        ("@article{k, number = 4}", "no. 4"),
        ("@article{k, journaltitle = {J}, volume = 2, issue = 5}", "J 2(5)"),
        ("@article{k, volume = 2, pages = {1--2}}", "2:1–2"),
        ("@article{k, journal = {{}}, journaltitle = {Other}, volume = 3}", "Other 3"),
        ("@article{k, journal = {J}, pages = {3–9}}", "J, pp. 3–9"),
        ("@inproceedings{k, publisher = {ACM}, pages = 5, year = 2001}", "ACM, p. 5, 2001"),
        ("@inbook{k, maintitle = {Works}}", "In Works"),
        ("@techreport{k, type = {Memo}, number = 7, institution = {MIT}}", "Memo 7, MIT"),
        ("@techreport{k, institution = {MIT}, year = 1999}", "Technical report, MIT, 1999"),
        ("@techreport{k, institution = {MIT}, number = { 7}}", "Technical report 7, MIT"),
        ("@manual{k, publisher = {Wiley}}", "Wiley"),
        ("@unpublished{k, year = 2020}", "Unpublished, 2020"),
        // Values decoded into the line: accents composed, or left combining when Unicode has no
        // precomposed letter.
        ("@article{k, journal = {Z. f{\\\"u}r Math.}, volume = 1}", "Z. für Math. 1"),
        ("@article{k, journal = {\\\"{q}J}, volume = 1}", "q\u{0308}J 1"),
    ]

    @Test(arguments: cases)
    func citation(_ input: String, _ expected: String) throws {
        let entry = try #require(Fixtures.library(input).entries.first)
        #expect(entry.citation == expected)
    }

    /// `withCitation` gives the bytes of `citation`, also in a buffer that held a longer line.
    @Test(arguments: cases)
    func citationBytes(_ input: String, _ expected: String) throws {
        let entry = try #require(Fixtures.library(input).entries.first)
        var scratch = ByteBuffer(capacity: 4)
        defer { scratch.deallocate() }
        scratch.append("a leftover line longer than any of these, from an earlier entry")
        #expect(entry.withCitation(scratch: &scratch) { Array($0) } == Array(expected.utf8))
    }

    @Test func citationBytesOfEveryCorpusEntryAreThoseOfItsCitation() {
        var scratch = ByteBuffer(capacity: 16)
        defer { scratch.deallocate() }
        var entries = 0
        var mismatches: [String] = []
        for url in Fixtures.corpusBibFiles {
            for entry in LibraryLoader.load(paths: [url.path]).library.entries {
                entries += 1
                if entry.withCitation(scratch: &scratch, { Array($0) }) != Array(entry.citation.utf8) {
                    mismatches.append("\(url.lastPathComponent) \(entry.key)")
                }
            }
        }
        #expect(entries > 10_000, "the corpora hold many entries")
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test(arguments: [("date = {2021-05-04}", "2021"), ("date = {2021}", "2021"), ("date = {{2020}-05}", "2020"),
                      ("date = {199x-01}", nil), ("date = {21}", nil), ("year = {1999}, date = {2021}", "1999"),
                      ("date = {2021/2022}", "2021")] as [(String, String?)])
    func yearFallsBackToDate(_ fields: String, _ year: String?) throws {
        let entry = try #require(Fixtures.library("@online{k, \(fields)}").entries.first)
        #expect(entry.year == year)
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

/// arXiv identifiers with no archive named are recognised by their shape alone.
@Suite("arXiv identifiers")
struct ArXivIdentifierTests {
    @Test(arguments: ["2309.06784", "0704.0001", "0704.0001v2", "2309.06784v12", "math/0211159", "math.AG/0211159v1",
                      "hep-th/9901001", "cond-mat/0102536v3"])
    func identifiersOfBothSchemes(_ eprint: String) throws {
        let entry = try #require(Fixtures.library("@misc{k, eprint = {\(eprint)}}").entries.first)
        #expect(entry.arXivIdentifier == eprint)
        #expect(entry.citation == "arXiv:" + eprint)
    }

    @Test(arguments: ["230.06784", "2309.067", "2309.067841", "2309-06784", "2309.06784v", "2309.06784v2x", "Math/0211159",
                      "math/021159", "math/02111590", "math.ag/0211159", "math.A/0211159", "/0211159", "math0211159",
                      "10.1000/182", ""])
    func otherStringsAreNotIdentifiers(_ eprint: String) throws {
        let entry = try #require(Fixtures.library("@misc{k, eprint = {\(eprint)}}").entries.first)
        #expect(entry.arXivIdentifier == nil)
    }
}
