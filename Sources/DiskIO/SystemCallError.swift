import Glibc

/// A failed system call, with its errno.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call (`write`, `rename`…), sometimes with what it was called on.
    public var call: String
    /// The errno it set.
    public var code: Int32

    /// Makes the error of `call` failing with errno `code`.
    public init(call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// Why it failed, as the system says it (`strerror`): "No space left on device".
    public var reason: String { String(cString: strerror(code)) }

    /// The problem as a sentence for messages.
    public var description: String { "\(call) failed: \(reason)" }
}
