import Foundation

/// A plain HTTP(S) folder with no listing: the .bib names the files, and each file's version
/// comes from a `HEAD` (ETag, else Last-Modified and size).
public struct HTTPFolderTransport: URLRootTransport {
    public let root: String
    let session: CurlSession
    let credentials: TransferCredentials

    public init(url: String, session: CurlSession, credentials: TransferCredentials) {
        root = Self.folderURL(url)
        self.session = session
        self.credentials = credentials
    }

    public func list(_ folder: String) throws -> [RemoteFile] {
        throw TransportError.listingUnsupported("plain HTTP")
    }

    /// The file's facts from a HEAD request; nil when the server says it is not there.
    public func head(_ path: String) throws -> RemoteFile? {
        let url = try url(of: path)
        var request = TransferRequest(url: url)
        request.method = "HEAD"
        request.credentials = credentials
        let response = try session.perform(request)
        switch response.status {
        case 200: break
        case 404, 410: return nil
        case 401, 403: throw TransportError.unauthorized(url)
        default: throw TransportError.http(status: response.status, url: url, detail: "", retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
        let size = response.headers["content-length"].flatMap { Int64($0) }
        let modified = response.headers["last-modified"].flatMap(HTTPDate.parse)
        let version = response.headers["etag"] ?? response.headers["last-modified"].map { "\($0)-\(size ?? -1)" }
        return RemoteFile(path: path, size: size, version: version, modified: modified)
    }

}
