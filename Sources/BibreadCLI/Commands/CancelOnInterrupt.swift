import Foundation

/// Ctrl-C (SIGINT) or SIGTERM stops a sync between two steps of curl's loop (polled), not in the
/// middle of a write; which of the two came is kept (`stoppingSignal`).
final class CancelOnInterrupt: @unchecked Sendable {
    nonisolated(unsafe) private static var interrupted: Int32 = 0

    init() {
        signal(SIGINT) { number in CancelOnInterrupt.interrupted = number }
        signal(SIGTERM) { number in CancelOnInterrupt.interrupted = number }
        // A parent may have started us with these signals blocked (some process launchers do):
        // unblock them, or Ctrl-C would wait until the end of the transfer.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    func isCancelled() -> Bool { CancelOnInterrupt.interrupted != 0 }

    /// The signal that stopped the work (SIGINT or SIGTERM), or 0.
    var stoppingSignal: Int32 { CancelOnInterrupt.interrupted }

    /// Waits `seconds`, or less when a signal comes.
    func sleep(seconds: Int) {
        let end = Date().addingTimeInterval(TimeInterval(seconds))
        while !isCancelled() && Date() < end {
            usleep(50_000)
        }
    }
}
