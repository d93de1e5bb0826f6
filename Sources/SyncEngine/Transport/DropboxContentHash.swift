import Checksums
import Foundation

/// Dropbox's content hash: SHA-256 of the concatenated SHA-256 digests of each 4 MiB block.
public enum DropboxContentHash {
    public static let blockSize = 4 * 1024 * 1024

    public static func of(file: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var digests: [UInt8] = []
        while let block = try handle.read(upToCount: blockSize), !block.isEmpty {
            var block256 = SHA256()
            block256.update(block)
            digests += block256.finalize()
        }
        return SHA256.hex(of: digests)
    }

    /// The content hash of bytes in memory.
    public static func of(bytes: [UInt8]) -> String {
        var digests: [UInt8] = []
        var start = 0
        while start < bytes.count {
            var block = SHA256()
            block.update(bytes[start..<min(bytes.count, start + blockSize)])
            digests += block.finalize()
            start += blockSize
        }
        return SHA256.hex(of: digests)
    }
}
