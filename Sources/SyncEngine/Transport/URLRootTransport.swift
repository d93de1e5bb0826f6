import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A transport whose files are URLs under a root (WebDAV, SFTP, plain HTTP).
protocol URLRootTransport: Transport {
    var root: String { get }
    var credentials: TransferCredentials { get }
}

extension URLRootTransport {
    /// A folder URL always ends in `/` (libcurl lists an sftp folder only then).
    static func folderURL(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    /// The URL of a validated remote path.
    func url(of path: String) throws -> String {
        root + URLText.encodedPath(try RemotePath.validated(path))
    }

    public func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest {
        var request = TransferRequest(url: try url(of: path))
        request.credentials = credentials
        request.resumeFrom = offset
        return request
    }
}
