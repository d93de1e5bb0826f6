import BibModel
import Foundation

/// Problems with a remote's definition or its answers.
public enum RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedURL(String)
    case unsafePath(String, reason: String)
    case badListing(String)
    case missingCredentials(String)
    case fetchFailed(path: String, reason: String)
    /// A program the remote needs is not installed: `name`, and `advice` on how to install it.
    case missingProgram(name: String, advice: String)
    /// A Dropbox sign-in is kept in the Secret Service keyring, which cannot be reached now;
    /// `signInCommand` signs in again.
    case keyringUnreachable(signInCommand: String)

    public var description: String {
        switch self {
        case .unsupportedURL(let url):
            return "'\(URLText.withoutCredentials(url))' is not a remote bibread can use (a folder, file://, http(s):// WebDAV, sftp://, dropbox:/path or rclone:REMOTE:path)"
        case .unsafePath(let path, let reason):
            return "refusing the remote path '\(RemotePath.printable(path))': \(reason)"
        case .badListing(let detail):
            return "cannot read the remote's listing: \(detail)"
        case .missingCredentials(let detail):
            return "missing credentials: \(detail)"
        case .fetchFailed(let path, let reason):
            return "cannot download \(path): \(reason)"
        case .missingProgram(let name, let advice):
            return "\(name) is not installed (or not on PATH): \(advice)"
        case .keyringUnreachable(let command):
            return "the Dropbox sign-in is kept in the Secret Service keyring, which cannot be reached now: unlock the keyring "
                + "(log in to the desktop session) and try again, or run `\(command)` again"
        }
    }
}
