import BibreadTestSupport
import Foundation
@testable import FullText
import Testing

/// Search on a PDF made for the purpose (pycairo): diacritics, special letters, ligatures and
/// a hyphenated line end, found both ways.
@Suite("folded search on a made PDF")
struct FoldedSearchTests {
    static let pages = [
        ["Ünïcödé text by Łukasiewicz and Gödel in Straße,",
         "a dyna-",
         "mic programming view of Ørsted’s \u{FB01}ndings, e\u{FB03}cient and \u{FB02}at."],
        ["Plain unicode text by Lukasiewicz and Godel in Strasse,", "findings of Orsted."],
    ]

    @Test func diacriticsAndSpecialLettersFoldBothWays() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = workspace.path("made.pdf")
        try makePDF(at: path, pages: Self.pages)
        #expect(try workspace.index.update(paths: [path]).read == 1)

        func pages(_ words: [String], phrase: Bool = false) throws -> [Int] {
            (try workspace.index.hits(words: words, phrase: phrase, in: nil, pagesPerDocument: 10)[path] ?? []).map(\.page).sorted()
        }
        for query in ["unicode", "Ünïcödé", "UNICODE", "lukasiewicz", "Łukasiewicz", "strasse", "Straße", "gödel", "orsted", "Ørsted"] {
            #expect(try pages([query]) == [1, 2], "\(query)")
        }
        #expect(try pages(["findings"]) == [1, 2])
        #expect(try pages(["efficient"]) == [1])
        #expect(try pages(["flat"]) == [1])
        #expect(try pages(["dynamic"]) == [1])
        #expect(try pages(["dynamic programming"], phrase: true) == [1])
        #expect(try pages(["dyna"]) == [1]) // a prefix of the joined word
        #expect(try pages(["mic"]).isEmpty)
        #expect(try pages(["godel in strasse"], phrase: true) == [1, 2])

        let hits = try workspace.index.hits(words: ["Ünïcödé"], phrase: false, in: [path])[path] ?? []
        let marked = Dictionary(uniqueKeysWithValues: hits.map { ($0.page, $0.snippet.matchedTexts.map(String.init)) })
        #expect(marked == [1: ["Ünïcödé"], 2: ["unicode"]])
    }
}
