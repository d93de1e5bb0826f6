import ArgumentParser
import Foundation
import FullText

/// `bibread-dev fulltext-bench`: the full-text benchmark (run by `bench/fulltext-bench.sh`).
struct FullTextBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fulltext-bench",
        abstract: "Time full-text indexing and queries (benchmark).")

    /// What to measure.
    enum Mode: String, ExpressibleByArgument {
        case index, query
    }

    @Argument(help: "index (the page rate) or query (the latency over synthetic pages).")
    var mode: Mode

    @Argument(help: "The PDFs to read.")
    var pdfs: [String]

    @Option(help: "Where to build the throw-away index.")
    var indexPath: String

    @Option(help: "Extraction threads (index); they also share one long PDF.")
    var workers = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "Pages to fill the index with (query).")
    var pages = 100_000

    @Option(help: "A query: words, or a phrase in double quotes (repeatable).")
    var query: [String] = []

    func run() throws {
        let url = URL(fileURLWithPath: indexPath)
        switch mode {
        case .index:
            DevConsole.print(FullTextBench.run(pdfs: pdfs, indexURL: url, workers: workers))
        case .query:
            DevConsole.print(FullTextBench.queryLatency(indexURL: url, pdfs: pdfs, syntheticPages: pages, queries: query))
        }
    }
}
