import Foundation

/// Waits with `poll` on the terminal's input and the mailbox's wake pipe, waking every 2 s
/// when idle (to notice bookmarks another bibread added).
struct PollWaiter: LoopWaiter {
    /// The terminal's input (standard input).
    let input: Int32
    /// The read end of the pipe the mailbox (and `TerminalGuard`, on a signal) writes to.
    let wake: Int32
    var idleMilliseconds: Int32 = 2000

    func wait() -> LoopWake {
        var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, idleMilliseconds)
        if ready < 0 && errno != EINTR { return .failed }
        if ready == 0 { return .idle }
        var drain = [UInt8](repeating: 0, count: 256)
        while read(wake, &drain, 256) > 0 {}
        if TerminalGuard.pendingSignal != 0 {
            TerminalGuard.takeUpSignal()
            return .signalled
        }
        if descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0 { return .hungUp }
        return .ready
    }
}
