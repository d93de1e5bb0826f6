import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Named pipes (FIFOs) for the tests of files that are not regular files: opening one for
/// reading waits for a writer, for good when none comes.
public enum FIFO {
    /// Makes a FIFO at `url` (mkfifo(3)).
    public static func make(at url: URL) throws {
        guard mkfifo(url.path, 0o600) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": errno])
        }
    }

    /// `call` for a body that may throw: what it returns, or its error as text; nil when it was
    /// still blocked after `limit`.
    public static func outcome(unblocking fifo: URL, within limit: Duration = .seconds(10),
                               _ body: @escaping @Sendable () throws -> String) -> String? {
        call(unblocking: fifo, within: limit) { () -> String in
            do {
                return try body()
            } catch {
                return "\(error)"
            }
        }
    }

    /// Calls `body` on a thread of its own and waits `limit` for it. A call that has not
    /// returned by then is blocked (opening the FIFO): a writer opens and closes the FIFO, which
    /// lets a blocked open go on and read the end of the file (again until the call returns),
    /// and the answer is nil.
    public static func call<Result: Sendable>(unblocking fifo: URL, within limit: Duration = .seconds(10),
                                               _ body: @escaping @Sendable () -> Result) -> Result? {
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome<Result>()
        Thread.detachNewThread {
            outcome.set(body())
            done.signal()
        }
        let seconds = TestTiming.seconds(Double(limit.components.seconds))
        if done.wait(timeout: .now() + seconds) == .success { return outcome.get() }
        repeat {
            let writer = open(fifo.path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        } while done.wait(timeout: .now() + 0.2) != .success
        return nil
    }

    private final class Outcome<Value: Sendable>: @unchecked Sendable {
        // @unchecked Sendable: `value` is only touched with `lock` held.
        private let lock = NSLock()
        private var value: Value?
        func set(_ new: Value) { lock.withLock { value = new } }
        func get() -> Value? { lock.withLock { value } }
    }
}
