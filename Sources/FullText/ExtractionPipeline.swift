import Foundation
import PDFText
#if canImport(Glibc)
import Glibc
#endif

/// Extracts the pages of many PDFs on worker threads and hands each document over, whole, to
/// the thread that stores them.
///
/// Each worker opens its own `PDFDocument` for the file it works on (a poppler document serves
/// one call at a time, so sharing one would serialize the workers). A worker keeps to its
/// document, taking its pages a few at a time; when no document is left to start, idle workers
/// join the documents still being read, so one long PDF at the end is read on every thread.
/// At most `2 × workers` documents are in flight (being read or waiting to be stored), which
/// bounds the memory held.
final class ExtractionPipeline: @unchecked Sendable {
    // @unchecked Sendable: every stored var is only touched with `condition` locked.

    /// A document to read: its fingerprint and the file to read it from.
    struct Job: Sendable {
        let fingerprint: String
        let path: String
    }

    /// A document read: the text of each page (page `n`'s at index `n - 1`), or why it could
    /// not be read.
    struct Finished {
        let job: Job
        let outcome: Result<[String], ExtractionFailure>
    }

    private let condition = NSCondition()
    private let jobs: [Job]
    private let workerCount: Int
    private let priority: ExtractionPriority
    private let inFlightLimit: Int
    private var nextJob = 0
    private var documents: [Int: DocumentState] = [:]
    private var finished: [Finished] = []
    private var cancelled = false
    private var liveWorkers = 0

    /// The state of a document being read.
    private struct DocumentState {
        /// Nil while the worker that started it is opening it.
        var pageCount: Int?
        var nextPage = 1
        var pagesLeft = 0
        var texts: [String] = []
    }

    /// What a worker does next.
    private enum Assignment {
        case open(Int)
        case pages(Int, ClosedRange<Int>)
    }

    init(jobs: [Job], workers: Int, priority: ExtractionPriority) {
        self.jobs = jobs
        self.priority = priority
        workerCount = max(1, workers)
        inFlightLimit = 2 * workerCount
    }

    /// Starts the worker threads (none when there is nothing to read).
    func start() {
        guard !jobs.isEmpty else { return }
        condition.lock()
        liveWorkers = workerCount
        condition.unlock()
        for _ in 0..<workerCount {
            let thread = Thread { [self] in work() }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// What `next(waitingAtMost:)` found.
    enum Next {
        /// A document read.
        case finished(Finished)
        /// None finished within the time given: the caller may check whether to stop.
        case waiting
        /// Every document has been handed over, or the pipeline was cancelled.
        case done
    }

    /// The next document read, in the order they finish, waiting at most `seconds` for one.
    func next(waitingAtMost seconds: TimeInterval) -> Next {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while finished.isEmpty {
            if cancelled || (nextJob == jobs.count && documents.isEmpty) { return .done }
            if !condition.wait(until: deadline) && finished.isEmpty { return .waiting }
        }
        let document = finished.removeFirst()
        condition.broadcast()
        return .finished(document)
    }

    /// Stops the workers after the pages each is on, and waits until they have stopped.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        while liveWorkers > 0 { condition.wait() }
        condition.unlock()
    }

    // MARK: - Workers

    private func work() {
        priority.apply()
        var current: (index: Int, document: PDFDocument)?
        while let assignment = nextAssignment(preferring: current?.index) {
            switch assignment {
            case .open(let index):
                current = nil
                do {
                    let document = try PDFDocument(path: jobs[index].path)
                    current = (index, document)
                    opened(index, pageCount: min(document.pageCount, IndexSchema.maximumPages))
                } catch {
                    fail(index, ExtractionFailure(error))
                }
            case .pages(let index, let range):
                if current?.index != index {
                    current = nil
                    do {
                        current = (index, try PDFDocument(path: jobs[index].path))
                    } catch {
                        fail(index, ExtractionFailure(error))
                        continue
                    }
                }
                guard let document = current?.document else { continue }
                let texts = range.map { number in
                    // A page poppler cannot give is indexed as a page without text.
                    PageTextNormalizer.normalize((try? document.text(ofPage: number)) ?? "")
                }
                store(texts, of: index, from: range.lowerBound)
            }
        }
        condition.lock()
        liveWorkers -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next assignment for a worker that has document `preferred` open; nil when it may stop.
    private func nextAssignment(preferring preferred: Int?) -> Assignment? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled {
            if let preferred, let range = takePages(of: preferred) { return .pages(preferred, range) }
            if nextJob < jobs.count, documents.count + finished.count < inFlightLimit {
                let index = nextJob
                nextJob += 1
                documents[index] = DocumentState()
                return .open(index)
            }
            // Join the document with the most pages left to hand out.
            let joinable = documents.compactMap { index, state -> (Int, Int)? in
                guard let count = state.pageCount, state.nextPage <= count else { return nil }
                return (index, count - state.nextPage + 1)
            }
            if let (index, _) = joinable.max(by: { $0.1 < $1.1 }), let range = takePages(of: index) {
                return .pages(index, range)
            }
            let opening = documents.values.contains { $0.pageCount == nil }
            if nextJob == jobs.count && !opening { return nil }
            condition.wait()
        }
        return nil
    }

    /// Hands out the next few pages of document `index` (with the lock held).
    private func takePages(of index: Int) -> ClosedRange<Int>? {
        guard var state = documents[index], let count = state.pageCount, state.nextPage <= count else { return nil }
        // Small chunks near the end of a document, so the workers finish it together.
        let left = count - state.nextPage + 1
        let chunk = max(1, min(8, left / (2 * workerCount)))
        let range = state.nextPage...(state.nextPage + chunk - 1)
        state.nextPage += chunk
        documents[index] = state
        return range
    }

    private func opened(_ index: Int, pageCount: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard var state = documents[index] else { return }
        state.pageCount = pageCount
        state.pagesLeft = pageCount
        state.texts = Array(repeating: "", count: pageCount)
        documents[index] = state
        if pageCount == 0 { complete(index, state) }
        condition.broadcast()
    }

    private func store(_ texts: [String], of index: Int, from first: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard var state = documents[index] else { return } // failed meanwhile
        for (offset, text) in texts.enumerated() { state.texts[first - 1 + offset] = text }
        state.pagesLeft -= texts.count
        if state.pagesLeft == 0 {
            complete(index, state)
        } else {
            documents[index] = state
        }
        condition.broadcast()
    }

    private func fail(_ index: Int, _ failure: ExtractionFailure) {
        condition.lock()
        defer { condition.unlock() }
        guard documents.removeValue(forKey: index) != nil else { return }
        finished.append(Finished(job: jobs[index], outcome: .failure(failure)))
        condition.broadcast()
    }

    /// Moves a document whose pages are all read to `finished` (with the lock held).
    private func complete(_ index: Int, _ state: DocumentState) {
        documents[index] = nil
        finished.append(Finished(job: jobs[index], outcome: .success(state.texts)))
    }
}
