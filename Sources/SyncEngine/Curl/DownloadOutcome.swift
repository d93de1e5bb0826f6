import Foundation

/// How one download ended.
public enum DownloadOutcome: Sendable, Equatable {
    /// The answer is on disk: `status` is the HTTP status (0 for `file://` and `sftp://`),
    /// `headers` the last answer's (names lower-cased), `bytesOnDisk` the file's length.
    case completed(status: Int, headers: [String: String], bytesOnDisk: Int64)
    /// The download failed; what it wrote before failing stays on disk (resume from it), except
    /// an HTTP error's body, which is never written.
    case failed(TransferFailure)
    /// Cancelled before it finished; what it wrote stays on disk.
    case cancelled
}
