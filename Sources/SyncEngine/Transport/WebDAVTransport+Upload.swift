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
        Self.strongETag(try propfindEntry(path)?.version)
    }

    /// What a `PROPFIND` of depth 0 says of `path` (a file or a folder); nil when nothing is there.
    private func propfindEntry(_ path: String) throws -> RemoteFile? {
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
        return files.first { $0.path == path }
    }

    /// A strong ETag (`"…"`) as a version; nil for none, a weak one (`W/"…"`, which `If-Match`
    /// never matches) or a listing's stand-in made of the date and size.
    static func strongETag(_ text: String?) -> RemoteVersion? {
        guard let text, text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        return RemoteVersion(text)
    }

    // MARK: Folders and removal

    /// `MKCOL` of `path`, then of each missing folder above it when the server says one is
    /// missing (409), then of `path` again. 405 means something is there already: a folder
    /// (fine), or a file (refused).
    public func createFolder(_ path: String) throws {
        let safe = try RemotePath.validated(path)
        try makeCollection(safe, wanted: safe)
    }

    private func makeCollection(_ path: String, wanted: String) throws {
        let parent = path.split(separator: "/").dropLast().joined(separator: "/")
        let url = try url(of: path) + "/"
        var refusal = ""
        // A second MKCOL once the folders above are made (or what was in the way is gone).
        for attempt in 1...2 {
            let response = try session.perform(TransferRequest(url: url, method: "MKCOL", credentials: credentials))
            refusal = "\(URLText.withoutCredentials(url)) answered \(response.status) to MKCOL"
            switch response.status {
            case 200, 201, 204:
                return
            case 405:
                // MKCOL is allowed on an unmapped URL only: something is there (or the server
                // allows no MKCOL, and nothing is).
                if let entry = try propfindEntry(path) {
                    guard entry.isFolder else { throw TransportError.folderNotCreated(path: wanted, reason: "\(path) is a file") }
                    return
                }
            case 409 where !parent.isEmpty && attempt == 1:
                // A folder above is missing (or is a file, which its own MKCOL finds).
                try makeCollection(parent, wanted: wanted)
            case 401, 403:
                throw TransportError.unauthorized(url)
            default:
                throw TransportError.folderNotCreated(path: wanted, reason: refusal)
            }
        }
        throw TransportError.folderNotCreated(path: wanted, reason: refusal)
    }

    /// `DELETE` with `If-Match: ETAG`: 412 when the file is another version, or when it is not
    /// there (`If-Match` fails on a missing file), which a `PROPFIND` then tells apart.
    public func remove(_ path: String, ifVersion expected: RemoteVersion) throws {
        let url = try url(of: path)
        let request = TransferRequest(url: url, method: "DELETE", headers: ["If-Match: \(expected.token)"], credentials: credentials)
        let response = try session.perform(request)
        switch response.status {
        case 200, 202, 204, 404, 410:
            return
        case 412:
            guard try propfindEntry(path) == nil else { throw TransportError.remoteChanged(path) }
        case 401, 403:
            throw TransportError.unauthorized(url)
        default:
            throw TransportError.removalFailed(path: path, reason: "\(URLText.withoutCredentials(url)) answered \(response.status) to DELETE")
        }
    }
}
