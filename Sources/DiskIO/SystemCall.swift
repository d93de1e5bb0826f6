import Glibc

/// Calling system functions the way POSIX asks: again when a signal interrupted them (EINTR).
public enum SystemCall {
    /// Calls `body`, a system call that returns a negative value (-1) and sets errno when it
    /// fails, until it is not interrupted by a signal. Returns what it returned, or throws its
    /// errno as a ``SystemCallError`` named `call`.
    ///
    /// `body` should be the system call alone, so that nothing changes errno between the call
    /// and the check. Short reads and writes are the caller's to go on with.
    @discardableResult
    public static func retrying<Result: BinaryInteger>(_ call: String, _ body: () -> Result) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: call, code: code) }
        }
    }
}
