import Foundation

/// How a request for a remote's facts (a folder's listing, a file's HEAD) is tried again when
/// it fails for a while (a busy or broken server, a dropped connection): as a download is, up to
/// ``attempts`` tries with a pause that starts at ``backoff`` seconds and doubles, except that a
/// server's `Retry-After` sets the pause. A server that asks for more than ``longestWait`` is
/// not waited out (nor asked again): its answer, with the wait it asked for, is the failure.
struct ListingRetries: Sendable {
    var attempts: Int
    var backoff: Double
    var longestWait: Double

    /// The tries and pauses of `options`.
    init(_ options: SyncOptions = SyncOptions()) {
        attempts = max(1, options.attempts)
        backoff = options.backoff
        longestWait = options.longestRetryWait
    }

    /// Runs `body` until it succeeds, fails for good, or has been tried ``attempts`` times; says
    /// each wait through `notice`. A cancel ends the wait at once, with
    /// ``TransferFailure/cancelled``.
    func run<Value>(notice: (String) -> Void = { _ in }, isCancelled: () -> Bool = { false },
                    _ body: () throws -> Value) throws -> Value {
        var attempt = 1
        while true {
            do {
                return try body()
            } catch {
                guard attempt < attempts, let pause = pause(after: error, attempt: attempt) else { throw error }
                // The server's own wait is in the error's message already.
                let when = (error as? TransportError)?.retryAfter == nil ? "in \(RetryAfter.describe(pause))" : "then"
                notice("\(error); trying again \(when)")
                guard wait(pause, isCancelled: isCancelled) else { throw TransferFailure.cancelled }
                attempt += 1
            }
        }
    }

    /// The pause before the next try after `error`, or nil when trying again is no use: the
    /// failure will not pass, or the server asks for a longer wait than a sync makes.
    private func pause(after error: Error, attempt: Int) -> Double? {
        let retryAfter: Double?
        switch error {
        case let failure as TransportError where failure.isTransient: retryAfter = failure.retryAfter
        case let failure as TransferFailure where failure.isTransient: retryAfter = nil
        default: return nil
        }
        if let retryAfter { return retryAfter <= longestWait ? retryAfter : nil }
        return backoff * pow(2, Double(attempt - 1))
    }

    /// Sleeps `seconds`, looking at `isCancelled` every 50 ms; false when cancelled.
    private func wait(_ seconds: Double, isCancelled: () -> Bool) -> Bool {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            if isCancelled() { return false }
            usleep(useconds_t(min(50_000, max(1, until.timeIntervalSinceNow * 1_000_000))))
        }
        return !isCancelled()
    }
}
