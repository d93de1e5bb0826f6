import BibModel
import Foundation

/// Where a remote's credentials come from. They are never printed or logged.
public enum CredentialSource: Sendable, Equatable, Codable {
    /// Whatever the URL and `~/.netrc` give (the default).
    case netrc
    /// A user name and a password read from environment variables.
    case environment(user: String, password: String)
    /// A bearer token (Dropbox) read from an environment variable.
    case tokenEnvironment(String)
    /// A bearer token printed by a command (`pass show dropbox`), run when needed.
    case tokenCommand(String)
    /// An SSH key file (for sftp); without one, ssh-agent.
    case sshKey(privateKey: String, publicKey: String?)
    /// The user and password ``CredentialStore`` keeps for the remote's name: those of a URL
    /// given as `user:password@`, moved out of it.
    case stored
}
