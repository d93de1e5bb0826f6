import BibreadTestSupport
import PDFText
import Foundation
@testable import FullText
import Testing

@Suite("searching the text of real PDFs")
struct RealPDFSearchTests {
    @Test("a phrase from pdftotext's text of page N is found on page N", arguments: [
        ("R-intro.pdf", [2, 9, 23, 41, 67, 98, 112]),
        ("biblatex.pdf", [4, 37, 120, 199, 286, 350]),
    ])
    func phraseFromPdftotextIsFoundOnItsPage(name: String, pages: [Int]) throws {
        let index = try CorpusIndex.index()
        let path = corpusPDF(name)
        for page in pages {
            let text = try pdftotext(path, page: page)
            let phrase = try #require(distinctivePhrase(in: text), "page \(page) has no run of 4 words")
            let hits = try index.hits(words: [phrase], phrase: true, in: [path], pagesPerDocument: 10_000)[path] ?? []
            let hit = hits.first { $0.page == page }
            #expect(hit != nil, "\(name) page \(page): '\(phrase)' found on pages \(hits.map(\.page))")
            if let hit {
                #expect(hit.snippet.matchedTexts.map { normalized($0) }.contains(normalized(phrase[...])),
                        "\(name) page \(page): snippet '\(hit.snippet.text)' marks \(hit.snippet.matchedTexts)")
            }
            let ranked = try index.search(words: [phrase], phrase: true, limit: 1_000)
            #expect(ranked.contains { $0.paths == [path] && $0.page == page }, "search() misses \(name) page \(page)")
        }
    }

    @Test func theSummaryOfTheCorpusIndexCountsEveryPage() throws {
        let summary = try CorpusIndex.shared.get().summary
        #expect(summary.read == CorpusIndex.pdfs.count)
        #expect(summary.failed.isEmpty)
        #expect(summary.pages == 113 + 357 + 4 + 5)
        let statistics = try CorpusIndex.index().statistics()
        #expect(statistics.documents == 4 && statistics.pages == summary.pages)
    }

    /// Words `pdftotext -layout` shows hyphenated across a line end (it keeps the lines as they
    /// are) are found whole on their page.
    @Test func wordsHyphenatedAcrossLinesAreFoundWhole() throws {
        let index = try CorpusIndex.index()
        let path = corpusPDF("R-intro.pdf")
        var checked = 0
        for page in 5...40 {
            let lines = try pdftotext(path, page: page, layout: true).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where number + 1 < lines.count && line.hasSuffix("-") {
                guard let head = line.dropLast().split(separator: " ").last, head.count >= 2,
                      head.allSatisfy({ $0.isLetter && $0.isASCII }),
                      let tail = lines[number + 1].split(separator: " ").first?.prefix(while: { $0.isLetter && $0.isASCII }),
                      let first = tail.first, first.isLowercase else { continue }
                let word = String(head + tail)
                let pages = (try index.hits(words: [word], phrase: false, in: [path], pagesPerDocument: 10_000)[path] ?? []).map(\.page)
                #expect(pages.contains(page), "'\(head)-' + '\(tail)' on page \(page): '\(word)' found on \(pages)")
                checked += 1
            }
        }
        #expect(checked >= 10, "only \(checked) hyphenated words on pages 5-40")
    }

    @Test func prefixWordsAreAndedOnOnePage() throws {
        let index = try CorpusIndex.index()
        let path = corpusPDF("R-intro.pdf")
        let both = try index.hits(words: ["regress", "coeffic"], phrase: false, in: [path], pagesPerDocument: 10_000)[path] ?? []
        #expect(!both.isEmpty)
        for hit in both {
            let text = try pdftotext(path, page: hit.page).lowercased()
            #expect(text.contains("regress") && text.contains("coeffic"), "page \(hit.page)")
        }
        let one = try index.hits(words: ["regress"], phrase: false, in: [path], pagesPerDocument: 10_000)[path] ?? []
        #expect(one.count >= both.count)
    }

    @Test func snippetsMarkTheMatchedWords() throws {
        let hits = try CorpusIndex.index().search(words: ["Packag"], phrase: false, limit: 50)
        #expect(hits.count == 50)
        for hit in hits {
            #expect(!hit.snippet.matches.isEmpty, "\(hit.paths) page \(hit.page): \(hit.snippet.text)")
            for match in hit.snippet.matchedTexts {
                #expect(match.lowercased().hasPrefix("packag"), "\(hit.snippet.text)")
            }
            let words = hit.snippet.text.split(separator: " ").count
            #expect(words <= 20, "\(hit.snippet.text)")
        }
        #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.rank <= $1.rank })
    }

    @Test("FTS5 syntax typed as words is searched as words", arguments: [
        ["NEAR"], ["AND"], ["OR", "NOT"], ["*"], ["\""], ["^"], [":"], ["text:word"], ["NEAR(a", "b)"], ["\"unbalanced"], ["{x}", "-y"],
    ])
    func injection(words: [String]) throws {
        let index = try CorpusIndex.index()
        _ = try index.search(words: words, phrase: false, limit: 5)
        _ = try index.search(words: words, phrase: true, limit: 5)
        _ = try index.paths(matching: words, phrase: false)
        _ = try index.hits(words: words, phrase: true, in: nil)
    }

    @Test func operatorWordsFindThemselves() throws {
        let index = try CorpusIndex.index()
        // "and"/"or"/"not" are ordinary words of the text, not operators.
        #expect(try index.search(words: ["AND"], phrase: false, limit: 5).count == 5)
        #expect(try index.search(words: ["not", "OR"], phrase: false, limit: 5).count == 5)
        #expect(try index.search(words: ["near"], phrase: false, limit: 5).allSatisfy { hit in
            hit.snippet.matchedTexts.allSatisfy { $0.lowercased().hasPrefix("near") }
        })
    }

    @Test func emptyQueriesFindNothing() throws {
        let index = try CorpusIndex.index()
        #expect(try index.search(words: [], phrase: false).isEmpty)
        #expect(try index.paths(matching: ["++"], phrase: true).isEmpty)
        #expect(try index.hits(words: ["—"], phrase: false, in: nil).isEmpty)
    }

    @Test func hitsAreLimitedToThePathsAsked() throws {
        let index = try CorpusIndex.index()
        let all = try index.hits(words: ["the"], phrase: false, in: nil, pagesPerDocument: 2)
        #expect(Set(all.keys) == Set(CorpusIndex.pdfs))
        #expect(all.values.allSatisfy { $0.count == 2 })
        let one = try index.hits(words: ["the"], phrase: false, in: [corpusPDF("R-intro.pdf"), "/not/indexed.pdf"])
        #expect(Array(one.keys) == [corpusPDF("R-intro.pdf")])
        #expect(try index.paths(matching: ["the"], phrase: false) == Set(CorpusIndex.pdfs))
    }

    @Test func theStoredTextIsPDFTextsTextNormalized() throws {
        // Whatever thread extracted a page, its text is the one a single document gives.
        let index = try CorpusIndex.index()
        let path = corpusPDF("R-intro.pdf")
        let stored = try index.storedTexts(path: path)
        let document = try PDFDocument(path: path)
        #expect(stored.count == document.pageCount)
        for page in 1...document.pageCount {
            let expected = PageTextNormalizer.normalize(try document.text(ofPage: page))
            #expect(stored[page - 1] == (expected.allSatisfy(\.isWhitespace) ? "" : expected), "page \(page)")
        }
    }

    private func normalized(_ text: Substring) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
