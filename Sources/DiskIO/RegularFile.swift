import Foundation

/// Opening files that must be regular files (a library, a PDF) without ever blocking on one
/// that is not: opening a FIFO for reading waits for a writer, for good when none comes.
public enum RegularFile {
    /// Opens `path` (following symbolic links) for reading and returns the descriptor, which the
    /// caller closes; anything but a regular file is refused.
    ///
    /// The file is looked at before it is opened (a device is never opened), then opened with
    /// `O_NONBLOCK`, so that a FIFO swapped in between the look and the open cannot block, and
    /// looked at again through the descriptor; only then is `O_NONBLOCK` cleared.
    ///
    /// - Throws: `RegularFileError` with the kind of file, or the system's reason.
    public static func openForReading(_ path: String) throws(RegularFileError) -> Int32 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw .system(errno) }
        try requireRegular(status)
        return try openChecked(path)
    }

    /// The whole of the small regular file at `path` (an id, a kept page), opened as
    /// `openForReading` opens it and read to its end; a read a signal interrupted is asked again.
    ///
    /// - Throws: `RegularFileError`: what `openForReading` throws, a failed read's errno, or
    ///   `.tooLarge` when the file holds more than `limit` bytes.
    public static func readAll(_ path: String, limit: Int) throws(RegularFileError) -> [UInt8] {
        let descriptor = try openForReading(path)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(limit, 0) + 1, 1 << 16))
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .system(code)
            }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// The open and the second look of `openForReading`, without the first look: what a file
    /// swapped in after that look meets.
    static func openChecked(_ path: String) throws(RegularFileError) -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system(errno) }
        var status = stat()
        var failure: RegularFileError?
        if fstat(descriptor, &status) != 0 {
            failure = .system(errno)
        } else if status.st_mode & S_IFMT != S_IFREG {
            failure = .notRegular(RegularFileError.kind(ofType: status.st_mode & S_IFMT))
        } else {
            let flags = fcntl(descriptor, F_GETFL)
            if flags < 0 || fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) != 0 { failure = .system(errno) }
        }
        guard let failure else { return descriptor }
        close(descriptor)
        throw failure
    }

    private static func requireRegular(_ status: stat) throws(RegularFileError) {
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { throw .notRegular(RegularFileError.kind(ofType: type)) }
    }
}
