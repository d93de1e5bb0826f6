import Checksums
import Foundation

/// Writing back to Dropbox: `files/upload` with `mode` `update` and the `rev` the change was
/// based on (or `add` to create), `autorename` off and `strict_conflict` on, so that another
/// version (or a file removed meanwhile) is refused with 409 `path/conflict/…` instead of a
/// "conflicted copy" being made. The body's `content_hash` goes with it: Dropbox refuses a body
/// that arrived cut short, and keeps a file only once its upload is complete.
///
/// Folders are made with `files/create_folder_v2` (which makes the missing folders above too; a
/// folder there already is `path/conflict/folder`), files removed with `files/delete_v2` and the
/// `parent_rev` the removal is based on.
extension DropboxTransport: UploadingTransport {
    /// The most `files/upload` takes in one request (larger files need an upload session).
    public static let largestUpload = 150 * 1024 * 1024

    public func download(_ path: String) throws -> VersionedContents? {
        let response = try perform { try downloadRequest(path, from: 0, token: $0) }
        switch response.status {
        case 200: break
        case 409 where Self.errorSummary(response).hasPrefix("path/not_found"): return nil
        default: throw failure(response, contentBase + "/2/files/download", path: path)
        }
        guard let rev = Self.revision(inResult: response.headers["dropbox-api-result"]) else {
            throw TransportError.uploadFailed(path: path, reason: "Dropbox gave no revision with the download")
        }
        return VersionedContents(contents: response.body, version: RemoteVersion(rev))
    }

    public func version(ofDownload file: URL, listed remote: RemoteFile, headers: [String: String]) throws -> RemoteVersion? {
        Self.revision(inResult: headers["dropbox-api-result"]).map(RemoteVersion.init)
    }

    public func upload(_ contents: [UInt8], to path: String, replacing expected: RemoteVersion?) throws -> RemoteVersion {
        guard contents.count <= Self.largestUpload else {
            throw TransportError.uploadFailed(path: path, reason: "it is larger than the \(Self.largestUpload / 1024 / 1024) MB one Dropbox upload takes")
        }
        let mode: [String: Any] = expected.map { [".tag": "update", "update": $0.token] } ?? [".tag": "add"]
        let argument: [String: Any] = ["path": root + "/" + (try RemotePath.validated(path)), "mode": mode,
                                       "autorename": false, "strict_conflict": true, "mute": false,
                                       "content_hash": DropboxContentHash.of(bytes: contents)]
        let url = contentBase + "/2/files/upload"
        let headers = ["Dropbox-API-Arg: \(try Self.apiArgument(json: argument))", "Content-Type: application/octet-stream"]
        let response = try perform { TransferRequest(url: url, method: "POST", headers: headers, body: contents, credentials: .bearer($0)) }
        switch response.status {
        case 200: break
        case 409 where Self.errorSummary(response).hasPrefix("path/conflict"): throw TransportError.remoteChanged(path)
        default: throw failure(response, url, path: path)
        }
        let metadata = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard let rev = metadata?["rev"] as? String else {
            throw TransportError.uploadFailed(path: path, reason: "Dropbox's answer names no revision")
        }
        return RemoteVersion(rev)
    }

    public func createFolder(_ path: String) throws {
        let safe = try RemotePath.validated(path)
        let url = apiBase + "/2/files/create_folder_v2"
        let response = try post(url, ["path": root + "/" + safe, "autorename": false])
        let summary = Self.errorSummary(response)
        switch response.status {
        case 200: return
        case 409 where summary.hasPrefix("path/conflict/folder"): return
        case 409 where summary.hasPrefix("path/conflict/file_ancestor"):
            let file = try fileInTheWay(of: safe)
            throw TransportError.folderNotCreated(path: safe, reason: file.map { "\($0) is a file" } ?? "a folder above it is a file")
        case 409 where summary.hasPrefix("path/conflict/file"):
            throw TransportError.folderNotCreated(path: safe, reason: "\(safe) is a file")
        case 409: throw TransportError.folderNotCreated(path: safe, reason: "Dropbox answered \(summary)")
        default: throw failure(response, url, path: safe)
        }
    }

    /// `files/delete_v2` with `parent_rev`. Dropbox does not document which error a `rev` that
    /// is not the file's gets, so both a conflict and `not_found` are checked with a download:
    /// a file there is another version; none there, it was removed already.
    public func remove(_ path: String, ifVersion expected: RemoteVersion) throws {
        let safe = try RemotePath.validated(path)
        let url = apiBase + "/2/files/delete_v2"
        let response = try post(url, ["path": root + "/" + safe, "parent_rev": expected.token])
        let summary = Self.errorSummary(response)
        switch response.status {
        case 200: return
        case 409 where summary.hasPrefix("path_lookup/not_found") || summary.hasPrefix("path_write/conflict"):
            guard let current = try download(safe) else { return }
            if current.version != expected { throw TransportError.remoteChanged(path) }
            throw TransportError.removalFailed(path: safe, reason: "Dropbox answered \(summary) for the version it has")
        case 409 where summary.hasPrefix("path_lookup/not_file"):
            throw TransportError.remoteChanged(path)
        case 409: throw TransportError.removalFailed(path: safe, reason: "Dropbox answered \(summary)")
        default: throw failure(response, url, path: safe)
        }
    }

    /// The `rev` in a `Dropbox-API-Result` header.
    static func revision(inResult header: String?) -> String? {
        guard let header, let object = (try? JSONSerialization.jsonObject(with: Data(header.utf8))) as? [String: Any] else { return nil }
        return object["rev"] as? String
    }

    private static func errorSummary(_ response: TransferResponse) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        return object?["error_summary"] as? String ?? ""
    }

    /// The error for an answer that is neither a success nor a conflict.
    private func failure(_ response: TransferResponse, _ url: String, path: String) -> TransportError {
        switch response.status {
        case 401: return .unauthorized(apiBase)
        case 409 where Self.errorSummary(response).hasPrefix("path/not_found"): return .notFound(path)
        default:
            return .http(status: response.status, url: url, detail: Self.errorSummary(response),
                         retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
    }
}
