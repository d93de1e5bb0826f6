import Foundation

/// Writing to file descriptors with the retries POSIX asks for.
public enum FileDescriptor {
    /// Writes all `count` bytes at `base` to `descriptor`, retrying short writes and EINTR.
    /// Returns 0, or the errno that stopped it (EPIPE when the reader went away).
    @discardableResult
    public static func writeAll(_ descriptor: Int32, _ base: UnsafeRawPointer, count: Int) -> Int32 {
        var offset = 0
        while offset < count {
            do throws(SystemCallError) {
                offset += try SystemCall.retrying("write") { Glibc.write(descriptor, base + offset, count - offset) }
            } catch {
                return error.code
            }
        }
        return 0
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and EINTR; throws
    /// the error of the write that failed (EPIPE when the reader went away).
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(SystemCallError) {
        let code = bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return Int32(0) }
            return writeAll(descriptor, base, count: buffer.count)
        }
        if code != 0 { throw SystemCallError(call: "write", code: code) }
    }
}
