import Checksums
import DiskIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fingerprint of a file's content that stays the same when the file is moved, renamed or
/// downloaded again, so that what bibread remembers about a PDF (extracted text, last page read)
/// follows it.
public enum PDFFingerprint {
    /// How much of each end of the file is hashed.
    public static let sampleSize = 64 * 1024

    /// The fingerprint of the file at `path`: SHA-256, as 64 lowercase hex digits, of the file's
    /// size (8 bytes, little-endian), its first 64 KiB and its last 64 KiB (a file of up to 64 KiB
    /// is hashed twice). Reads at most 128 KiB however large the file; two files that differ only
    /// in the middle of a larger file share a fingerprint.
    ///
    /// - Throws: `PDFError.notRegularFile` for a FIFO, a directory or a device (never opened so
    ///   that it can block), `PDFError.unreadable` when the file cannot be opened or read.
    public static func of(path: String) throws -> String {
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForReading(path)
        } catch {
            if case .notRegular(let kind) = error { throw PDFError.notRegularFile(path: path, kind: kind) }
            throw PDFError.unreadable(path: path, reason: error.description)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(path) }
        let size = Int(status.st_size)
        let sample = min(size, sampleSize)
        var hash = SHA256()
        hash.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(size) >> ($0 * 8)) })
        hash.update(try read(descriptor, path: path, count: sample, at: 0))
        hash.update(try read(descriptor, path: path, count: sample, at: size - sample))
        return SHA256.hexString(hash.finalize())
    }

    /// Exactly `count` bytes at `offset`, retrying short reads and EINTR.
    private static func read(_ descriptor: Int32, path: String, count: Int, at offset: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got: Int
            do throws(SystemCallError) {
                got = try bytes.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemCallError) in
                        try SystemCall.retrying("pread") { pread(descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done)) }
                    }
                }.get()
            } catch {
                throw PDFError.unreadable(path: path, reason: error.reason)
            }
            if got == 0 { throw PDFError.unreadable(path: path, reason: "the file got shorter while it was read") }
            done += got
        }
        return bytes
    }

    private static func unreadable(_ path: String) -> PDFError {
        .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
}
