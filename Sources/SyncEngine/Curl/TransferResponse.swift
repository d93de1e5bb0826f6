import Foundation

/// A server's answer, held in memory.
public struct TransferResponse: Sendable {
    /// The HTTP status of the last answer (after redirects); 0 for `file://` and `sftp://`.
    public let status: Int
    /// The last answer's headers, names lower-cased (`etag`, `last-modified`, `content-range`…);
    /// a repeated header's values are joined with `, `. A `file://` HEAD gives
    /// `content-length` and `last-modified` too.
    public let headers: [String: String]
    /// The body (empty after `HEAD`).
    public let body: [UInt8]
    /// When the remote file last changed, if the server said: an HTTP `Last-Modified`, or the
    /// modification time of a `file://` or `sftp://` file.
    public let modificationDate: Date?

    /// A response with these parts (transports' tests build their own).
    public init(status: Int, headers: [String: String], body: [UInt8], modificationDate: Date? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.modificationDate = modificationDate
    }
}
