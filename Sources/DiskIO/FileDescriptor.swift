import Foundation

/// Writing to file descriptors with the retries POSIX asks for.
public enum FileDescriptor {
    /// Writes all `count` bytes at `base` to `descriptor`, retrying short writes and EINTR.
    /// Returns 0, or the errno that stopped it (EPIPE when the reader went away).
    @discardableResult
    public static func writeAll(_ descriptor: Int32, _ base: UnsafeRawPointer, count: Int) -> Int32 {
        var offset = 0
        while offset < count {
            let written = Glibc.write(descriptor, base + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }
}
