import DiskIO
import Foundation
import Glibc

/// A program bibread started.
///
/// A thread of its own waits for it (blocked in `waitid`, without collecting it), then collects
/// its status under a lock: so the process never lingers as a zombie, even when it was started
/// detached and nobody asks about it again, and a signal sent by ``stop(gracePeriod:)`` can
/// never reach a later process that happens to get the same pid.
public final class LaunchedProcess: @unchecked Sendable {
    /// Its process id.
    public let processIdentifier: pid_t
    /// Whether signals go to its whole process group (it leads one: detached, background and
    /// quick styles), so that what it started stops with it.
    private let signalsGroup: Bool
    private let condition = NSCondition()
    private var recorded: Termination?

    init(processIdentifier: pid_t, signalsGroup: Bool) {
        self.processIdentifier = processIdentifier
        self.signalsGroup = signalsGroup
        let thread = Thread { [self] in collect() }
        thread.name = "bibread-wait-\(processIdentifier)"
        thread.stackSize = 128 * 1024
        thread.start()
    }

    /// How it ended; nil while it runs.
    public var termination: Termination? {
        condition.lock()
        defer { condition.unlock() }
        return recorded
    }

    /// Whether it is still running.
    public var isRunning: Bool { termination == nil }

    /// Waits until it ends.
    @discardableResult
    public func waitUntilExit() -> Termination {
        condition.lock()
        defer { condition.unlock() }
        while recorded == nil { condition.wait() }
        return recorded ?? .unknown
    }

    /// Waits until it ends or `seconds` pass; nil if it still runs.
    public func waitUntilExit(timeout seconds: Double) -> Termination? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while recorded == nil {
            if !condition.wait(until: deadline) { break }
        }
        return recorded
    }

    /// Stops it: SIGTERM, then SIGKILL if it still runs after `gracePeriod` seconds; returns
    /// how it ended (at once if it already had).
    @discardableResult
    public func stop(gracePeriod: Double = 1) -> Termination {
        guard send(SIGTERM) else { return waitUntilExit() }
        if let ended = waitUntilExit(timeout: gracePeriod) { return ended }
        send(SIGKILL)
        return waitUntilExit()
    }

    /// Sends `signal` (to its group when it leads one) unless it has been collected; false if
    /// it had.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard recorded == nil else { return false }
        // Not collected yet, so the pid (and the group id) still belong to it.
        if !signalsGroup || kill(-processIdentifier, signal) != 0 { kill(processIdentifier, signal) }
        return true
    }

    /// The waiting thread's work.
    private func collect() {
        var information = siginfo_t()
        _ = try? SystemCall.retrying("waitid") { waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT) }
        condition.lock()
        var status: Int32 = 0
        let collected = (try? SystemCall.retrying("waitpid") { waitpid(processIdentifier, &status, 0) }) ?? -1
        recorded = collected == processIdentifier ? Termination(waitStatus: status) : .unknown
        condition.broadcast()
        condition.unlock()
    }
}
