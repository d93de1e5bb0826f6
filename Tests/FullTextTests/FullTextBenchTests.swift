import BibreadTestSupport
import Foundation
@testable import DevTools
import FullText
import Testing

@Suite("the benchmark entry points")
struct FullTextBenchTests {
    @Test func indexesAndReports() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = FullTextBench.run(pdfs: [samplePDF("tex-tour.pdf"), samplePDF("line-breaking.pdf")],
                                       indexURL: folder.appendingPathComponent("bench.sqlite"), workers: 2)
        #expect(output.hasPrefix("fulltext-index documents=2 pages=9 failed=0 workers=2 seconds="))
        #expect(output.contains(" pages_per_second="))
        #expect(FullTextBench.run(pdfs: [], indexURL: folder.appendingPathComponent("empty.sqlite"), workers: 1)
            .hasPrefix("fulltext-index error="))
    }

    @Test func timesQueriesOverSyntheticPages() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = FullTextBench.queryLatency(indexURL: folder.appendingPathComponent("query.sqlite"), pdfs: samplePDFs,
                                                syntheticPages: 250, queries: ["paths", "\"shortest paths\"", "zzzz"], runs: 3)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 4, "\(output)")
        #expect(lines[0].hasPrefix("fulltext-query-one query=paths documents_matched="))
        #expect(lines[1].hasPrefix("fulltext-query-one query=\"shortest_paths\" documents_matched="))
        #expect(lines[2].hasPrefix("fulltext-query-one query=zzzz documents_matched=0 "))
        #expect(lines[3].hasPrefix("fulltext-query pages=250 documents=3 "))
        #expect(lines[3].contains(" runs=9 "))
    }

    @Test func queriesInQuotesArePhrases() {
        #expect(FullTextBench.parse("\"linear model\"") == (["linear model"], true))
        #expect(FullTextBench.parse("linear model") == (["linear", "model"], false))
    }
}
