import Synchronization

/// The token of the latest job of each kind: a job gets a new one when it is asked for (so a
/// stop that comes while it still waits on its queue stops it too), and a stop cancels only
/// the token of its own kind.
final class JobTokens: Sendable {
    private let tokens = Mutex<[BackgroundJob: CancellationToken]>([:])

    /// A new token for a job of this kind, which later stops of the kind cancel.
    func begin(_ job: BackgroundJob) -> CancellationToken {
        let token = CancellationToken()
        tokens.withLock { $0[job] = token }
        return token
    }

    /// Stops the latest job of this kind (nothing when none was asked for).
    func cancel(_ job: BackgroundJob) {
        tokens.withLock { $0[job] }?.cancel()
    }
}
