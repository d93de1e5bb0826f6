import BibreadTestSupport
import Foundation
@testable import FullText
import Testing

@Suite("ranking pages")
struct RankingTests {
    @Test func pagesWithMoreMatchesComeFirst() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = workspace.path("ranked.pdf")
        let filler = "some words about nothing in particular that fill a line of text"
        try makePDF(at: path, pages: [
            ["A zebra once.", filler, filler, filler],
            ["The zebra and the zebra met a zebra,", "zebra after zebra.", filler],
            [filler, filler],
            ["Zebras: a zebra or two.", filler, filler, filler],
        ])
        try workspace.index.update(paths: [path])

        let hits = try #require(try workspace.index.hits(words: ["zebra"], phrase: false, in: [path], pagesPerDocument: 10)[path])
        #expect(hits.map(\.page) == [2, 4, 1])
        #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.rank < $1.rank })
        #expect(try workspace.index.hits(words: ["zebra"], phrase: false, in: [path], pagesPerDocument: 2)[path]?.map(\.page) == [2, 4])

        // search() ranks with FTS5's bm25: the same order here.
        #expect(try workspace.index.search(words: ["zebra"], phrase: false).map(\.page) == [2, 4, 1])
    }
}
