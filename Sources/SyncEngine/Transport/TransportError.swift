import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Failures of a remote's protocol (beyond the transfer itself).
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered `status`; `retryAfter` is the wait its `Retry-After` header asked for,
    /// in seconds, if it sent one.
    case http(status: Int, url: String, detail: String, retryAfter: Double? = nil)
    case listingUnsupported(String)
    case notFound(String)
    case unauthorized(String)
    /// A conditional upload (or removal) found the remote file at this path another version
    /// than the one the change was based on (changed, created or removed meanwhile): nothing
    /// was written (or removed).
    case remoteChanged(String)
    /// An upload of the file at `path` could not be completed or checked, for `reason`; the
    /// remote file is the old version or the new, never a part.
    case uploadFailed(path: String, reason: String)
    /// The folder at `path` could not be made, for `reason` (a file is in the way, the remote
    /// refused).
    case folderNotCreated(path: String, reason: String)
    /// The file at `path` could not be removed, for `reason`; it is still there.
    case removalFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .http(let status, let url, let detail, let retryAfter):
            // The detail is the server's (Dropbox's error_summary): cleaned of control characters.
            let wait = retryAfter.map { "; it asks to be asked again in \(RetryAfter.describe($0))" } ?? ""
            return "\(URLText.withoutCredentials(url)) answered \(status)\(detail.isEmpty ? "" : ": \(TerminalText.cleanedLine(detail))")\(wait)"
        case .listingUnsupported(let kind):
            return "\(kind) remotes cannot list folders; the .bib names the files to fetch"
        case .notFound(let path):
            return "\(path) is not on the remote"
        case .unauthorized(let url):
            return "\(URLText.withoutCredentials(url)) refused the credentials (check config.toml, ~/.netrc or the environment)"
        case .remoteChanged(let path):
            return "\(TerminalText.cleanedLine(path)) changed on the remote since this machine's copy was synced; nothing was changed there"
        case .uploadFailed(let path, let reason):
            return "cannot upload \(TerminalText.cleanedLine(path)): \(TerminalText.cleanedLine(reason))"
        case .folderNotCreated(let path, let reason):
            return "cannot make the folder \(TerminalText.cleanedLine(path)) on the remote: \(TerminalText.cleanedLine(reason))"
        case .removalFailed(let path, let reason):
            return "cannot remove \(TerminalText.cleanedLine(path)) from the remote: \(TerminalText.cleanedLine(reason))"
        }
    }

    /// Worth trying again later (the server is busy or broken, not the request).
    public var isTransient: Bool {
        if case .http(let status, _, _, _) = self { return status == 429 || status >= 500 }
        return false
    }

    /// The wait, in seconds, the server asked for before the next request (`Retry-After`).
    public var retryAfter: Double? {
        if case .http(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}
