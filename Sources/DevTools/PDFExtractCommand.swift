import ArgumentParser
import BibModel
import Foundation
import PDFText

/// `bibread-dev pdf-extract FILE.pdf`: the PDF text benchmark (run by
/// `bench/pdf-bench.sh`). Prints the text of every page to standard output as `pdftotext FILE -`
/// does: each page followed by a form feed. Pages are extracted on every core, one document per
/// thread, and printed in order.
struct PDFExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf-extract",
        abstract: "Print the text of a PDF's pages (benchmark).")

    @Argument(help: ArgumentHelp("The PDF file.", valueName: "file.pdf"))
    var path: String

    @Flag(help: "Print each page in its physical layout, as pdftotext -layout does.")
    var layout = false

    @Option(help: ArgumentHelp("Only pages A to B (1-based, inclusive), or only page N.", valueName: "A-B"))
    var pages: String?

    @Option(help: "The PDF's password.")
    var password: String?

    @Option(help: "Threads to extract pages on (default: one per core).")
    var jobs: Int?

    func validate() throws {
        if let pages, Self.pageRange(pages) == nil {
            throw ValidationError("--pages takes A-B or N with 1 <= A <= B, not '\(pages)'")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let first: PDFDocument
        do {
            first = try PDFDocument(path: path, password: password)
        } catch {
            DevConsole.error("bibread-dev: \(error)")
            throw ExitCode(2)
        }
        var range = 1...max(1, first.pageCount)
        if let pages, let wanted = Self.pageRange(pages) {
            guard wanted.lowerBound <= first.pageCount else {
                DevConsole.error("bibread-dev: \(path) has \(first.pageCount) pages; --pages \(pages) names none of them")
                throw ExitCode(1)
            }
            range = wanted.clamped(to: range)
        }
        guard first.pageCount > 0 else { return }
        let workers = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, range.count)
        let mode: PageTextMode = layout ? .layout : .reading
        let results = ExtractedPages(range: range, workers: workers)
        var threads: [Thread] = []
        for worker in 0..<workers {
            let (path, password) = (path, password)
            let thread = Thread {
                // One document per thread: poppler serializes the calls on each document.
                do {
                    let document = worker == 0 ? first : try PDFDocument(path: path, password: password)
                    while let page = results.nextPage() {
                        results.finish(page, with: Result { try Self.bytes(of: document.text(ofPage: page, mode: mode)) })
                    }
                    results.workerExited(with: nil)
                } catch {
                    results.workerExited(with: error)
                }
            }
            thread.stackSize = 8 << 20
            threads.append(thread)
            thread.start()
        }
        for page in range {
            switch results.wait(for: page) {
            case .success(let bytes):
                DevConsole.writeData(bytes)
            case .failure(let error):
                results.cancel()
                DevConsole.error("bibread-dev: \(path): page \(page): \(error)")
                throw ExitCode(2)
            }
        }
    }

    /// A page's text as pdftotext writes it: the text, a newline unless it ends with one, then a
    /// form feed; a page without text is a form feed alone. The text is cleaned of control
    /// characters (`TerminalText`); the form feed is the page's end.
    static func bytes(of text: String) -> [UInt8] {
        var bytes = Array(TerminalText.cleaned(text).utf8)
        if let last = bytes.last, last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        bytes.append(0x0C)
        return bytes
    }

    /// `A-B` or `N` as a page range, or nil when it is not one.
    static func pageRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(parts.count), let first = parts.first ?? nil, let last = parts.last ?? nil,
              first >= 1, first <= last else { return nil }
        return first...last
    }
}

/// The pages of `pdf-extract` as the worker threads finish them, handed out in order. Workers
/// stay at most `window` pages ahead of the writer, so memory stays bounded on long documents.
private final class ExtractedPages: @unchecked Sendable {
    // @unchecked Sendable: every stored var is only touched with `condition` locked.
    private let condition = NSCondition()
    private let range: ClosedRange<Int>
    private let window = 64
    private var nextToTake: Int
    private var nextToWrite: Int
    private var done: [Int: Result<[UInt8], any Error>] = [:]
    private var failure: (any Error)?
    private var cancelled = false
    private var workers: Int

    init(range: ClosedRange<Int>, workers: Int) {
        self.range = range
        self.workers = workers
        nextToTake = range.lowerBound
        nextToWrite = range.lowerBound
    }

    /// The next page for a worker, waiting while the workers are too far ahead; nil when done.
    func nextPage() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && nextToTake <= range.upperBound && nextToTake - nextToWrite >= window { condition.wait() }
        guard !cancelled, nextToTake <= range.upperBound else { return nil }
        nextToTake += 1
        return nextToTake - 1
    }

    func finish(_ page: Int, with result: Result<[UInt8], any Error>) {
        condition.lock()
        done[page] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Records that a worker is done, with the error that stopped it early (its document did not
    /// open); the other workers take its share.
    func workerExited(with error: (any Error)?) {
        condition.lock()
        workers -= 1
        if let error, failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the workers after the page each is on.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for `page` (pages are asked for in order) and hands its result over.
    func wait(for page: Int) -> Result<[UInt8], any Error> {
        condition.lock()
        defer { condition.unlock() }
        while done[page] == nil {
            // Every worker is gone and the page is not done: they all failed to open the file.
            if workers == 0 { return .failure(failure ?? PDFError.pageOutOfRange(page: page, count: range.upperBound)) }
            condition.wait()
        }
        let result = done.removeValue(forKey: page) ?? .success([])
        nextToWrite = page + 1
        condition.broadcast()
        return result
    }
}
