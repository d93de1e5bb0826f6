import Foundation

/// Ctrl-C stops a sync between two steps of curl's loop (polled), not in the middle of a write.
final class CancelOnInterrupt: @unchecked Sendable {
    nonisolated(unsafe) private static var interrupted: Int32 = 0

    init() {
        signal(SIGINT) { _ in CancelOnInterrupt.interrupted = 1 }
        signal(SIGTERM) { _ in CancelOnInterrupt.interrupted = 1 }
        // A parent may have started us with these signals blocked (some process launchers do):
        // unblock them, or Ctrl-C would wait until the end of the transfer.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    func isCancelled() -> Bool { CancelOnInterrupt.interrupted != 0 }
}
