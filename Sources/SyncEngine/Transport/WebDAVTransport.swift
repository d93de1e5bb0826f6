import BibModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// WebDAV (Nextcloud, ownCloud, Apache, lighttpd, nginx): a folder is listed with one
/// `PROPFIND` of depth 1, which gives every file's size, ETag and modification time.
public struct WebDAVTransport: URLRootTransport {
    public let root: String
    let session: CurlSession
    let credentials: TransferCredentials

    public init(url: String, session: CurlSession, credentials: TransferCredentials) {
        root = Self.folderURL(url)
        self.session = session
        self.credentials = credentials
    }

    static let propfindBody = Array("""
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getetag/><d:getlastmodified/></d:prop></d:propfind>
        """.utf8)

    public func list(_ folder: String) throws -> [RemoteFile] {
        let url = root + (folder.isEmpty ? "" : URLText.encodedPath(folder) + "/")
        var request = TransferRequest(url: url)
        request.method = "PROPFIND"
        request.headers = ["Depth: 1", "Content-Type: application/xml; charset=utf-8"]
        request.body = WebDAVTransport.propfindBody
        request.credentials = credentials
        let timer = PhaseTimer()
        let response = try session.perform(request)
        timer.lap("PROPFIND \(url): \(response.body.count) bytes")
        defer { timer.lap("read the listing of \(url)") }
        switch response.status {
        case 207: break
        case 401, 403: throw TransportError.unauthorized(url)
        case 404: throw TransportError.notFound(folder.isEmpty ? "/" : folder)
        default:
            throw TransportError.http(status: response.status, url: url, detail: "expected a WebDAV listing (207)",
                                      retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
        let rootPath = URLComponents(string: root)?.percentEncodedPath ?? "/"
        return try WebDAVListing.parse(response.body, rootPath: rootPath, folder: folder)
    }

}
