import ArgumentParser
import BibModel
import BibreadValues
import Foundation
import Reader
import ReaderCore

/// `bibread-dev pdf-find FILE.pdf QUERY`: the reading view's search of a document (`/`), timed
/// (run by `bench/pdf-bench.sh`). Opens the document as the reader does (the page labels and the
/// outline read after it, untimed) and runs its search from
/// a page, the pages read on every core; prints `pdf-find page=N wrapped=W seconds=S` (page 0:
/// no page holds the query, so every page was read). With `--index-path`, the search uses that
/// full-text index as the reader uses its own.
struct PDFFindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf-find",
        abstract: "Time the reading view's search of a PDF (benchmark).")

    @Argument(help: ArgumentHelp("The PDF file.", valueName: "file.pdf"))
    var path: String

    @Argument(help: "What to search for (as typed after / in the reading view).")
    var query: String

    @Option(help: "The page the search starts after.")
    var from = 1

    @Flag(help: "Search backwards (N in the reading view).")
    var backward = false

    @Option(help: "The reading view's text width.")
    var width = 100

    @Option(help: "Threads that read the pages (default: the reader's, one per core; 1: one page after another).")
    var jobs: Int?

    @Flag(help: "Search the pages' physical layout (t in the reading view) instead of the reflowed text.")
    var layout = false

    @Option(help: ArgumentHelp("A full-text index (`fulltext-bench index --index-path`) that the search uses as the reader uses its own (default: none).", valueName: "path"))
    var indexPath: String?

    func run() throws {
        let work = BackgroundWork(library: Library(files: []), groups: [], fullTextURL: indexPath.map { URL(fileURLWithPath: $0) })
        if let jobs { work.searchThreads = max(1, jobs) }
        var failure: String?
        work.perform(.openDocument(path: path, password: nil)) { event in
            if case .documentFailed(_, let message) = event { failure = message }
        }
        if let failure {
            DevConsole.error("bibread-dev: \(failure)")
            throw ExitCode(2)
        }
        // As the reader does once the first page is shown (its second opening then searches too).
        work.perform(.readDocumentDetails(path: path)) { _ in }
        let mode: ReadingMode = layout ? .layout : .reflow
        let began = ContinuousClock.now
        var result: (page: Int?, wrapped: Bool) = (nil, false)
        work.perform(.findInDocument(path: path, query: query, fromPage: from, forward: !backward, mode: mode, width: width)) { event in
            if case .searchResult(_, _, let page, let wrapped) = event { result = (page, wrapped) }
        }
        let elapsed = ContinuousClock.now - began
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        DevConsole.print("pdf-find page=\(result.page ?? 0) wrapped=\(result.wrapped) seconds=\(String(format: "%.4f", seconds))")
    }
}
