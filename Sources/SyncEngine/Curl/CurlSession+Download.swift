import CCurl
import Foundation

extension CurlSession {
    /// Downloads `jobs` into their destination files, at most `parallel` at a time, through one
    /// curl multi handle on the calling thread; returns one outcome per job, in order.
    ///
    /// - A destination is created, or truncated, once the server answers with success (2xx, or
    ///   any answer over `file://` and `sftp://`). When the job's `resumeFrom` is above 0 and the
    ///   server resumed (a 206 whose `Content-Range` starts there, or any `file://` or `sftp://`
    ///   read), the file is cut to `resumeFrom` bytes and the answer appended; a server that
    ///   ignored the range (200) has the file rewritten from the start. Resuming needs a file of
    ///   at least `resumeFrom` bytes.
    /// - An HTTP error (400 or more) is `.failed(.http(…))`, and its body never reaches the
    ///   file, which is left as it was. The exception: a 416 to a resume whose
    ///   `Content-Range: bytes */N` says the file has `N == resumeFrom` bytes is `.completed`
    ///   with status 416 — the file was already whole.
    /// - Other non-2xx answers (304 Not Modified to a conditional request) are `.completed`
    ///   without touching the file.
    /// - After a transport failure or a cancellation, what was written stays in the file, to
    ///   resume from.
    /// - `progress(jobIndex, bytesOfThisJobOnDisk, expectedTotal)` is called on the calling
    ///   thread as data arrives, at most about ten times a second per job, and once at the end
    ///   of each completed job. `expectedTotal` is nil until the server announced a length.
    /// - `isCancelled` is polled at least every 100 ms; once it returns true every transfer
    ///   stops and every unfinished job is `.cancelled`.
    /// - `finished(jobIndex, outcome)` is called on the calling thread as soon as a job's outcome
    ///   is known, while the other transfers go on (the caller can put a file in place then),
    ///   and once for every job, in the order the outcomes come.
    public func download(_ jobs: [DownloadJob], parallel: Int,
                         progress: (Int, Int64, Int64?) -> Void,
                         isCancelled: () -> Bool,
                         finished: (Int, DownloadOutcome) -> Void = { _, _ in }) -> [DownloadOutcome] {
        guard !jobs.isEmpty else { return [] }
        return withoutActuallyEscaping(progress) { progress in
            withoutActuallyEscaping(isCancelled) { isCancelled in
                withoutActuallyEscaping(finished) { finished in
                    DownloadRun(jobs: jobs, parallel: max(1, parallel), progress: progress,
                                isCancelled: isCancelled, finished: finished).run()
                }
            }
        }
    }
}

/// One call of ``CurlSession/download(_:parallel:progress:isCancelled:)``: the queue of jobs,
/// the transfers running, and the outcomes so far.
///
/// It holds the caller's non-escaping closures, so it must not outlive the call.
private final class DownloadRun {
    private let jobs: [DownloadJob]
    private let parallel: Int
    private let progress: (Int, Int64, Int64?) -> Void
    private let isCancelled: () -> Bool
    private let finished: (Int, DownloadOutcome) -> Void
    private var outcomes: [DownloadOutcome?]
    /// The jobs being transferred, by their `CURL *`.
    private var running: [UnsafeMutableRawPointer: DownloadTask] = [:]
    private var nextJob = 0
    private var cancelled = false
    private var lastCancellationCheck: ContinuousClock.Instant?
    private let clock = ContinuousClock()

    private static let cancellationInterval: Duration = .milliseconds(50)
    private static let progressInterval: Duration = .milliseconds(100)
    private static let waitMilliseconds: Int32 = 100

    init(jobs: [DownloadJob], parallel: Int, progress: @escaping (Int, Int64, Int64?) -> Void,
         isCancelled: @escaping () -> Bool, finished: @escaping (Int, DownloadOutcome) -> Void) {
        self.jobs = jobs
        self.parallel = parallel
        self.progress = progress
        self.isCancelled = isCancelled
        self.finished = finished
        outcomes = Array(repeating: nil, count: jobs.count)
    }

    /// Runs every job to its outcome, or until cancelled.
    func run() -> [DownloadOutcome] {
        let multi: MultiHandle
        do {
            multi = try MultiHandle()
        } catch {
            for index in jobs.indices { settle(index, .failed(Self.transferFailure(error))) }
            return outcomes.map { $0 ?? .cancelled }
        }
        while !checkCancellation() {
            startJobs(on: multi)
            if running.isEmpty { break }
            do {
                try multi.perform()
                let finishedAny = collectFinished(from: multi)
                reportProgress()
                if cancelled { break }
                if !finishedAny { try multi.wait(milliseconds: Self.waitMilliseconds) }
            } catch {
                for task in running.values.sorted(by: { $0.index < $1.index }) {
                    multi.remove(task.handle)
                    task.abandon()
                    settle(task.index, .failed(Self.transferFailure(error)))
                }
                running = [:]
            }
        }
        for task in running.values.sorted(by: { $0.index < $1.index }) {
            multi.remove(task.handle)
            task.abandon()
            settle(task.index, .cancelled)
        }
        running = [:]
        for index in outcomes.indices where outcomes[index] == nil { settle(index, .cancelled) }
        return outcomes.map { $0 ?? .cancelled }
    }

    /// Records a job's outcome and tells the caller at once.
    private func settle(_ index: Int, _ outcome: DownloadOutcome) {
        outcomes[index] = outcome
        finished(index, outcome)
    }

    /// Starts queued jobs until `parallel` are running; a job that cannot start fails at once.
    private func startJobs(on multi: MultiHandle) {
        while running.count < parallel, nextJob < jobs.count {
            let index = nextJob
            nextJob += 1
            do {
                let task = try DownloadTask(index: index, job: jobs[index])
                task.handle.progressHandler = { [unowned self, unowned task] in
                    self.report(task, final: false)
                    return !self.checkCancellation()
                }
                try multi.add(task.handle)
                running[task.handle.raw] = task
            } catch {
                settle(index, .failed(Self.transferFailure(error)))
            }
        }
    }

    /// Records the outcome of every transfer curl reports finished; returns whether there was any.
    private func collectFinished(from multi: MultiHandle) -> Bool {
        var finishedAny = false
        while let (raw, result) = multi.nextFinished() {
            guard let task = running.removeValue(forKey: raw) else { continue }
            multi.remove(task.handle)
            let outcome = task.finish(result: result, cancelled: cancelled)
            if case .completed = outcome { report(task, final: true) }
            settle(task.index, outcome)
            finishedAny = true
        }
        return finishedAny
    }

    /// Whether the caller cancelled; asks it at most every 50 ms, and never again once it said yes.
    private func checkCancellation() -> Bool {
        if cancelled { return true }
        let now = clock.now
        if let last = lastCancellationCheck, now - last < Self.cancellationInterval { return false }
        lastCancellationCheck = now
        cancelled = isCancelled()
        return cancelled
    }

    private func reportProgress() {
        for task in running.values { report(task, final: false) }
    }

    /// Tells the caller how far `task` got, when that changed and (unless `final`) the last
    /// report is at least 100 ms old.
    private func report(_ task: DownloadTask, final: Bool) {
        let bytes = task.bytesOnDisk
        let expected = task.expectedTotal
        let now = clock.now
        if let last = task.lastReport {
            if last.bytes == bytes && last.expected == expected { return }
            if !final && now - last.time < Self.progressInterval { return }
        }
        task.lastReport = (bytes, expected, now)
        progress(task.index, bytes, expected)
    }

    private static func transferFailure(_ error: any Error) -> TransferFailure {
        error as? TransferFailure ?? .curl(code: Int(CURLE_FAILED_INIT.rawValue), message: String(describing: error))
    }
}
