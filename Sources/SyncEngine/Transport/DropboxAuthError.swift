import Foundation

/// Why signing in to Dropbox, or keeping signed in, failed. No token is ever part of one.
public enum DropboxAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token endpoint refused the pasted code (`error: error_description`).
    case codeRefused(String)
    /// Dropbox no longer accepts the kept refresh token (`invalid_grant`): revoked, or the app
    /// was removed from the account; `command` signs in again (empty: not known here).
    case signInRevoked(command: String)
    /// The token endpoint refused another request (`error: error_description`).
    case refused(String)
    /// An answer bibread cannot use.
    case unexpectedAnswer(String)

    public var description: String {
        switch self {
        case .codeRefused(let reason): "Dropbox refused the code (\(reason))"
        case .signInRevoked(let command):
            "Dropbox no longer accepts bibread's sign-in (it was revoked, or the app was removed from the account's connected apps)"
                + (command.isEmpty ? "" : "; run `\(command)` again")
        case .refused(let reason): "Dropbox refused to renew the sign-in (\(reason))"
        case .unexpectedAnswer(let detail): "Dropbox's sign-in did not work: \(detail)"
        }
    }
}
