import Foundation

/// How a transfer proves who it is to the server.
public enum TransferCredentials: Sendable, Equatable {
    /// No credentials, beyond a user name in the URL.
    case none
    /// The login for the host in `~/.netrc`, when there is one (`CURLOPT_NETRC` optional).
    case netrc
    /// A user name and password: HTTP Basic authentication, or password login over sftp.
    case basic(user: String, password: String)
    /// An OAuth 2 bearer token, sent as `Authorization: Bearer …` (never to another host on a
    /// redirect).
    case bearer(String)
    /// An SSH login (sftp).
    ///
    /// - `user`: overrides the user name in the URL; nil keeps it (or curl's default).
    /// - `privateKey`: the private key file; nil uses the ssh-agent (and `~/.ssh/id_rsa`, which
    ///   libcurl tries first). `publicKey` nil lets libssh2 derive it from the private key.
    /// - `passphrase`: unlocks the private key.
    /// - `knownHosts`: the known-hosts file; nil means `~/.ssh/known_hosts`. The host key must
    ///   be in it: a missing or different key fails the login (curl error 60).
    /// A leading `~/` in a path is the home directory.
    case ssh(user: String?, privateKey: String?, publicKey: String?, passphrase: String?, knownHosts: String?)
}
