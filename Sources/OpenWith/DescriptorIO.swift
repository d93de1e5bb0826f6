import DiskIO
import Glibc

/// A failed system call, with its errno.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call (`write`, `rename`…).
    public var call: String
    /// The errno it set.
    public var code: Int32

    /// The problem as a sentence for messages.
    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// Whole writes to file descriptors, with typed errors.
enum DescriptorIO {
    /// Writes every byte, going on after partial writes and EINTR.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(SystemCallError) {
        let code = bytes.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            return FileDescriptor.writeAll(descriptor, base, count: buffer.count)
        }
        if code != 0 { throw SystemCallError(call: "write", code: code) }
    }
}
