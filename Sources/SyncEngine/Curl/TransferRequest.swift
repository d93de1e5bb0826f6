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

/// One request: where, how, and with what.
public struct TransferRequest: Sendable, Equatable {
    /// The URL: `file://`, `http://`, `https://` or `sftp://`; any other scheme is refused.
    public var url: String
    /// The method: `GET`, `HEAD` (no body is read), `POST`, or any other word (such as
    /// `PROPFIND` or `DELETE`), which is sent as given. Only HTTP uses it, except `HEAD`, which
    /// asks a `file://` or `sftp://` URL for its size and date only.
    public var method: String = "GET"
    /// Extra headers, each `Name: value`. As in curl, `Name:` removes a header curl would send
    /// and `Name;` sends it empty. A header holding a line break is refused.
    public var headers: [String] = []
    /// The body to send, if any (with `POST` and custom methods).
    public var body: [UInt8]? = nil
    /// The credentials to log in with.
    public var credentials: TransferCredentials = .none
    /// Where to start reading the remote file, in bytes: an HTTP `Range: bytes=N-` header (with
    /// any method; a `Range` header in `headers` wins), or the resume offset of a `file://` or
    /// `sftp://` read. 0 reads everything.
    public var resumeFrom: Int64 = 0
    /// How long to wait for the connection (and the SSH handshake), in seconds; 0 is curl's
    /// default of 300.
    public var connectTimeout: Double = 10
    /// Abandons the transfer when it moves less than one byte a second for this many seconds
    /// (rounded up; 0 never does). It fails with curl error 28.
    public var stallTimeout: Double = 30

    /// A GET request for `url`, with nothing else set.
    public init(url: String) {
        self.url = url
    }

    /// A request with its method, headers, body and credentials.
    public init(url: String, method: String = "GET", headers: [String] = [], body: [UInt8]? = nil,
                credentials: TransferCredentials = .none) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.credentials = credentials
    }

    /// The URL without a user name or password, for messages.
    public var displayURL: String { Redaction.removingUserinfo(from: url) }
}

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

/// One file to download: the request, and the file its body goes into.
public struct DownloadJob: Sendable, Equatable {
    /// What to fetch; its `resumeFrom` continues a partial file.
    public var request: TransferRequest
    /// The file the body is written to (a `file:` URL).
    public var destination: URL

    /// A download of `request` into `destination`.
    public init(request: TransferRequest, destination: URL) {
        self.request = request
        self.destination = destination
    }
}

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
