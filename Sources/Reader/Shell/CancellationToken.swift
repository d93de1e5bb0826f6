import Synchronization

/// Says whether one background job was asked to stop; each job gets its own.
public final class CancellationToken: Sendable {
    private let cancelled = Mutex(false)

    public init() {}

    public var isCancelled: Bool {
        cancelled.withLock { $0 }
    }

    public func cancel() {
        cancelled.withLock { $0 = true }
    }
}
