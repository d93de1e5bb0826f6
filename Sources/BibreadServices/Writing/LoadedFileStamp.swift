import Checksums
import DiskIO
import Foundation

/// What a library file was when it was loaded: its size, its modification time and the SHA-256
/// of the bytes that were read. ``LibraryFileWriter`` compares it with the file as it is when
/// an edit is written, to tell whether someone else wrote the file meanwhile.
///
/// The content hash decides: a file whose bytes are those that were loaded is unchanged even
/// when it was touched (its time changed), and one whose bytes differ has changed even when its
/// size and time look the same (a clock with coarse steps, `rsync --times`, `cp -p`).
public struct LoadedFileStamp: Sendable, Equatable, Codable {
    /// The file's size in bytes when it was looked at.
    public var size: Int64
    /// Its modification time: seconds since 1970 …
    public var modifiedSeconds: Int64
    /// … and the nanoseconds within that second.
    public var modifiedNanoseconds: Int64
    /// The SHA-256 (lowercase hex) of the bytes that were loaded.
    public var contentHash: String

    public init(size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, contentHash: String) {
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.contentHash = contentHash
    }

    /// The stamp of bytes whose hash is `contentHash`, with the size and time `status` gives.
    init(status: stat, contentHash: String) {
        self.init(size: Int64(status.st_size), modifiedSeconds: Int64(status.st_mtim.tv_sec),
                  modifiedNanoseconds: Int64(status.st_mtim.tv_nsec), contentHash: contentHash)
    }

    /// The stamp of `bytes` with the size and time `status` gives.
    init(bytes: [UInt8], status: stat) {
        self.init(status: status, contentHash: SHA256.hex(of: bytes))
    }

    /// The stamp of `bytes` a caller read from `path` (with `LibraryLoader.read`, say): the size
    /// and time are the file's now. Should the file have changed between the read and this
    /// look, the hash still names the bytes that were read, so the change is found on writing.
    public init(loadedBytes bytes: [UInt8], at path: String) {
        var status = stat()
        if stat(path, &status) != 0 { status.st_size = -1 }
        self.init(bytes: bytes, status: status)
    }

    /// Reads the file at `path` (following links; only a regular file) and returns its bytes
    /// and their stamp, both from one open of the file.
    ///
    /// - Throws: ``LibraryWriteError/unreadable(path:reason:)``.
    public static func read(_ path: String) throws(LibraryWriteError) -> (bytes: [UInt8], stamp: LoadedFileStamp) {
        let read = try readWithStatus(path)
        return (read.bytes, LoadedFileStamp(bytes: read.bytes, status: read.status))
    }

    /// The bytes of the regular file at `path` and its status, from one descriptor.
    static func readWithStatus(_ path: String) throws(LibraryWriteError) -> (bytes: [UInt8], status: stat) {
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForReading(path)
        } catch {
            throw .unreadable(path: path, reason: error.description)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            var count = 0
            repeat {
                count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            } while count < 0 && errno == EINTR
            if count < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return (bytes, status)
    }

    /// What differs between this stamp (of the bytes loaded) and `current` (of the file now),
    /// for people: "1,234 bytes, now 1,300", "modified at 2026-11-27 01:22:10".
    public func differences(to current: LoadedFileStamp) -> [String] {
        var differences: [String] = []
        if size != current.size { differences.append("\(size) bytes, now \(current.size)") }
        if (modifiedSeconds, modifiedNanoseconds) != (current.modifiedSeconds, current.modifiedNanoseconds) {
            differences.append("modified at \(current.modifiedText)")
        }
        if contentHash != current.contentHash && size == current.size { differences.append("other bytes of the same size") }
        return differences
    }

    /// The modification time as local time, `2026-11-27 01:22:10`.
    public var modifiedText: String {
        LibraryWriteError.timeText(Double(modifiedSeconds))
    }
}
