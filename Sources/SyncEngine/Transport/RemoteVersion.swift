import Checksums
import Foundation

/// Which version of a remote file a copy was made from, in the remote's own terms: what a
/// conditional upload names as the version it replaces.
///
/// - WebDAV: the file's ETag, quoted as the server sends it (`"2988224427"`);
/// - Dropbox: the file's `rev`;
/// - SFTP and folder remotes: the size and SHA-256 of the contents (`sha256:HEX size:N`), for
///   neither gives a version of its own (modification times have whole seconds, or minutes).
public struct RemoteVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token as the remote gives it (or as bibread builds it, for SFTP and folders).
    public let token: String

    public init(_ token: String) {
        self.token = token
    }

    /// The version of contents that remotes without a version of their own get: their size
    /// and SHA-256.
    public static func content(_ bytes: [UInt8]) -> RemoteVersion {
        RemoteVersion("sha256:\(SHA256.hex(of: bytes)) size:\(bytes.count)")
    }

    /// Whether `bytes` (nil: no file) are the version `expected` (nil: no file) of a remote
    /// without versions of its own: the size first, then the SHA-256.
    static func content(_ bytes: [UInt8]?, matches expected: RemoteVersion?) -> Bool {
        guard let bytes, let expected else { return bytes == nil && expected == nil }
        guard expected.token.hasSuffix(" size:\(bytes.count)") else { return false }
        return content(bytes) == expected
    }

    public var description: String { token }
}
