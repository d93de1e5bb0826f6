import Foundation

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
    /// Commands an `sftp://` request sends the server before the transfer (libcurl's
    /// `CURLOPT_QUOTE`: `mkdir PATH`, `rm PATH`, `rename A B`…, each path quoted as
    /// ``SFTPClient/quoted(_:)`` quotes it). The first that fails fails the request with curl
    /// error 21, but a command starting with `*` may fail without that. Other schemes ignore them.
    public var quote: [String] = []

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
