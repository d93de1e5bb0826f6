import Foundation
import FullText

/// The full-text benchmark, run by `bibread-dev fulltext-bench` for `bench/fulltext-bench.sh`.
/// Each function returns its report: lines of `key=value` fields, the last one the summary.
public enum FullTextBench {
    /// Indexes `pdfs` into a fresh index at `indexURL` (an existing one is deleted first) with
    /// `workers` threads, and reports the pages, the wall time and the page rate:
    /// `fulltext-index documents=4 pages=1252 failed=0 workers=2 seconds=3.210 pages_per_second=390.0`.
    public static func run(pdfs: [String], indexURL: URL, workers: Int) -> String {
        do {
            removeIndex(at: indexURL)
            let index = try FullTextIndex(url: indexURL)
            let summary = try index.update(paths: pdfs, workers: workers)
            guard summary.pages > 0 else { throw BenchError.noText }
            let rate = summary.seconds > 0 ? Double(summary.pages) / summary.seconds : 0
            var lines = summary.failed.sorted { $0.key < $1.key }.map { "fulltext-failed path=\($0.key) reason=\($0.value)" }
            lines.append("fulltext-index documents=\(summary.read) pages=\(summary.pages) failed=\(summary.failed.count) "
                + "workers=\(workers) seconds=\(format(summary.seconds, 3)) pages_per_second=\(format(rate, 1))")
            return lines.joined(separator: "\n")
        } catch {
            return "fulltext-index error=\(String(describing: error).replacingOccurrences(of: "\n", with: " "))"
        }
    }

    /// Fills a fresh index at `indexURL` with `syntheticPages` pages made from the text of
    /// `pdfs` (documents of 100 pages, each page a corpus page with 2% of its words replaced by
    /// words of a 50,000-word made-up vocabulary and a word of its own document, so the index
    /// grows its vocabulary as a real library does), then times each query of `queries` (words,
    /// or a phrase in double quotes) `runs` times, after one warm-up run.
    ///
    /// A query is timed as the reader answers `text:` terms: the matching paths (the filter),
    /// then the best 3 pages with snippets of the first 30 of them (the references on screen).
    /// One line per query, then `fulltext-query pages=… documents=… fill_seconds=… queries=…
    /// median_ms=… p95_ms=… max_ms=…` over every run of every query.
    public static func queryLatency(indexURL: URL, pdfs: [String], syntheticPages: Int, queries: [String],
                                    runs: Int = 20) -> String {
        do {
            let (index, fillSeconds) = try syntheticIndex(at: indexURL, pdfs: pdfs, pages: syntheticPages)
            let statistics = try index.statistics()
            var lines: [String] = []
            var all: [Double] = []
            for query in queries {
                let (words, phrase) = parse(query)
                var times: [Double] = []
                var matched = 0
                for run in 0...max(1, runs) {
                    let started = DispatchTime.now().uptimeNanoseconds
                    let paths = try index.paths(matching: words, phrase: phrase)
                    let onScreen = Set(paths.sorted().prefix(30))
                    _ = try index.hits(words: words, phrase: phrase, in: onScreen, pagesPerDocument: 3)
                    let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                    matched = paths.count
                    if run > 0 { times.append(milliseconds) } // run 0 warms the caches
                }
                all += times
                lines.append("fulltext-query-one query=\(query.replacingOccurrences(of: " ", with: "_")) documents_matched=\(matched) "
                    + "median_ms=\(format(percentile(times, 0.5), 2)) p95_ms=\(format(percentile(times, 0.95), 2))")
            }
            lines.append("fulltext-query pages=\(statistics.pages) documents=\(statistics.documents) fill_seconds=\(format(fillSeconds, 1)) "
                + "queries=\(queries.count) runs=\(all.count) median_ms=\(format(percentile(all, 0.5), 2)) "
                + "p95_ms=\(format(percentile(all, 0.95), 2)) max_ms=\(format(all.max() ?? 0, 2))")
            return lines.joined(separator: "\n")
        } catch {
            return "fulltext-query error=\(String(describing: error).replacingOccurrences(of: "\n", with: " "))"
        }
    }

    // MARK: - Synthetic index

    /// A fresh index of `pages` made-up pages (see `queryLatency`) and the seconds it took.
    static func syntheticIndex(at url: URL, pdfs: [String], pages: Int) throws -> (FullTextIndex, Double) {
        removeIndex(at: url)
        let sourceURL = url.deletingLastPathComponent().appendingPathComponent("fulltext-bench-source-\(UUID().uuidString).sqlite")
        defer { removeIndex(at: sourceURL) }
        let source = try FullTextIndex(url: sourceURL)
        try source.update(paths: pdfs)
        let corpus = try source.pageTexts()
        guard !corpus.isEmpty else { throw BenchError.noText }
        let corpusWords = corpus.map { $0.split(whereSeparator: { $0 == " " || $0 == "\n" }) }

        let index = try FullTextIndex(url: url)
        let started = Date()
        var random = SplitMix64(seed: 42)
        let pagesPerDocument = 100
        var document = 0
        var made = 0
        while made < pages {
            let count = min(pagesPerDocument, pages - made)
            let own = "doc\(document)word"
            var texts: [String] = []
            texts.reserveCapacity(count)
            for number in 0..<count {
                var words = corpusWords[(made + number) % corpusWords.count]
                for position in words.indices where random.next() % 50 == 0 {
                    words[position] = Substring("syn\(random.next() % 50_000)")
                }
                if !words.isEmpty { words[Int(random.next() % UInt64(words.count))] = Substring(own) }
                texts.append(words.joined(separator: " "))
            }
            let fingerprint = String(format: "%064x", document)
            let path = "/synthetic/document-\(document).pdf"
            try index.store(pages: texts, fingerprint: fingerprint, path: path)
            made += count
            document += 1
        }
        return (index, Date().timeIntervalSince(started))
    }

    private enum BenchError: Error, CustomStringConvertible {
        case noText
        var description: String { "the PDFs gave no text" }
    }

    /// A small deterministic random generator, so every run builds the same index.
    private struct SplitMix64 {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    // MARK: - Helpers

    /// A query as words, or as a phrase when it is in double quotes.
    static func parse(_ query: String) -> (words: [String], phrase: Bool) {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") {
            return ([String(trimmed.dropFirst().dropLast())], true)
        }
        return (trimmed.split(separator: " ").map(String.init), false)
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(0, rank), sorted.count - 1)]
    }

    private static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    /// Deletes an index file and its WAL files.
    static func removeIndex(at url: URL) {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}
