import Foundation

/// Writing back over WebDAV: one `PUT` with `If-Match: ETAG` (or `If-None-Match: *` to create),
/// which the server refuses with 412 when the file is another version.
///
/// An interrupted `PUT` leaves the old file: lighttpd's mod_webdav writes the body to a file of
/// its own (an unnamed `O_TMPFILE`, else a temporary name) and links or renames it into place
/// only once the body is complete, and Apache's mod_dav and Nextcloud do the same (Nextcloud
/// with a `.part` file). So the upload is a single `PUT`, not a `PUT` to a temporary name and a
/// `MOVE`: one request fewer, and no temporary file left on the remote by a killed upload.
extension WebDAVTransport: UploadingTransport {
    public func download(_ path: String) throws -> VersionedContents? {
        guard let first = try get(path) else { return nil }
        if let etag = Self.strongETag(first.headers["etag"]) { return VersionedContents(contents: first.body, version: etag) }
        // A server that sends no ETag with GET: the file is the version PROPFIND gives before
        // and after the GET, when both agree.
        guard let before = try propfindETag(path), let second = try get(path), let after = try propfindETag(path),
              before == after else {
            throw TransportError.uploadFailed(path: path, reason: "the server gives no stable version (ETag) for the file")
        }
        return VersionedContents(contents: second.body, version: before)
    }

    public func version(ofDownload file: URL, listed remote: RemoteFile, headers: [String: String]) throws -> RemoteVersion? {
        // The listing came before the download: its ETag is never newer than the bytes.
        Self.strongETag(headers["etag"]) ?? Self.strongETag(remote.version)
    }

    public func upload(_ contents: [UInt8], to path: String, replacing expected: RemoteVersion?) throws -> RemoteVersion {
        let url = try url(of: path)
        let condition = expected.map { "If-Match: \($0.token)" } ?? "If-None-Match: *"
        let request = TransferRequest(url: url, method: "PUT", headers: [condition, "Content-Type: application/octet-stream"],
                                      body: contents, credentials: credentials)
        let response = try session.perform(request)
        switch response.status {
        case 200, 201, 204: break
        // 412: another version (or a file where none was expected); 404 and 409: the file (or
        // its folder) went away.
        case 412: throw TransportError.remoteChanged(path)
        case 404, 409 where expected != nil: throw TransportError.remoteChanged(path)
        case 401, 403: throw TransportError.unauthorized(url)
        default:
            throw TransportError.http(status: response.status, url: url, detail: "the upload was refused",
                                      retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
        if let etag = Self.strongETag(response.headers["etag"]) { return etag }
        // No ETag in the answer: the version read back is this upload's only if the bytes are.
        guard let current = try download(path), current.contents == contents else {
            throw TransportError.uploadFailed(path: path, reason: "uploaded, but the remote file changed again at once")
        }
        return current.version
    }

    /// The answer to a GET of `path`; nil when the server has no such file.
    private func get(_ path: String) throws -> TransferResponse? {
        let url = try url(of: path)
        let response = try session.perform(TransferRequest(url: url, credentials: credentials))
        switch response.status {
        case 200: return response
        case 404, 410: return nil
        case 401, 403: throw TransportError.unauthorized(url)
        default:
            throw TransportError.http(status: response.status, url: url, detail: "",
                                      retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
    }

    /// The ETag a `PROPFIND` of depth 0 gives for `path`; nil when there is no file.
    private func propfindETag(_ path: String) throws -> RemoteVersion? {
        let url = try url(of: path)
        let request = TransferRequest(url: url, method: "PROPFIND",
                                      headers: ["Depth: 0", "Content-Type: application/xml; charset=utf-8"],
                                      body: WebDAVTransport.propfindBody, credentials: credentials)
        let response = try session.perform(request)
        switch response.status {
        case 207: break
        case 404, 410: return nil
        case 401, 403: throw TransportError.unauthorized(url)
        default: throw TransportError.http(status: response.status, url: url, detail: "expected a WebDAV listing (207)")
        }
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        let rootPath = URLComponents(string: root)?.percentEncodedPath ?? "/"
        let files = try WebDAVListing.parse(response.body, rootPath: rootPath, folder: folder)
        return Self.strongETag(files.first { $0.path == path }?.version)
    }

    /// A strong ETag (`"…"`) as a version; nil for none, a weak one (`W/"…"`, which `If-Match`
    /// never matches) or a listing's stand-in made of the date and size.
    static func strongETag(_ text: String?) -> RemoteVersion? {
        guard let text, text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        return RemoteVersion(text)
    }
}
