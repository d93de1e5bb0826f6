import Checksums
import Foundation

/// Dropbox through its HTTP API v2: `files/list_folder` (and `/continue`) for listings, each
/// file's `content_hash` as its version and to check a download; `files/download` with the
/// `Dropbox-API-Arg` header. The API base is configurable so that tests use a local stand-in.
/// Its bearer token is ``DropboxAccess``'s: a request Dropbox answers with 401 while a kept
/// sign-in can renew its access token is sent once more with the new one.
public struct DropboxTransport: Transport {
    /// The folder in the Dropbox (`/Papers`), "" for its root.
    public let root: String
    let apiBase: String
    let contentBase: String
    let access: DropboxAccess
    let session: CurlSession

    /// A transport that sends the fixed `token`.
    public init(url: String, apiBase: String, token: String, session: CurlSession) {
        self.init(url: url, apiBase: apiBase, access: DropboxAccess(token: token), session: session)
    }

    public init(url: String, apiBase: String, access: DropboxAccess, session: CurlSession) {
        var path = url.hasPrefix("dropbox:") ? String(url.dropFirst("dropbox:".count)) : url
        while path.hasSuffix("/") { path.removeLast() }
        if !path.isEmpty && !path.hasPrefix("/") { path = "/" + path }
        root = path
        let base = apiBase.hasSuffix("/") ? String(apiBase.dropLast()) : apiBase
        self.apiBase = base
        contentBase = base == "https://api.dropboxapi.com" ? "https://content.dropboxapi.com" : base
        self.access = access
        self.session = session
    }

    public func list(_ folder: String) throws -> [RemoteFile] {
        let folderPath = root + (folder.isEmpty ? "" : "/" + folder)
        var entries: [[String: Any]] = []
        var answer = try call("/2/files/list_folder", ["path": folderPath, "recursive": false])
        while true {
            entries += answer["entries"] as? [[String: Any]] ?? []
            guard answer["has_more"] as? Bool == true, let cursor = answer["cursor"] as? String else { break }
            answer = try call("/2/files/list_folder/continue", ["cursor": cursor])
        }
        let prefix = (root + "/").lowercased()
        return entries.compactMap { entry in
            guard let tag = entry[".tag"] as? String, tag == "file" || tag == "folder",
                  let display = entry["path_display"] as? String else { return nil }
            let relative = display.lowercased().hasPrefix(prefix) ? String(display.dropFirst(prefix.count)) : (entry["name"] as? String ?? display)
            return RemoteFile(path: relative, size: (entry["size"] as? NSNumber)?.int64Value,
                              version: entry["content_hash"] as? String,
                              modified: (entry["server_modified"] as? String).flatMap(ISO8601DateFormatter().date(from:))?.timeIntervalSince1970,
                              isFolder: tag == "folder")
        }.sorted { $0.path < $1.path }
    }

    public func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest {
        try downloadRequest(path, from: offset, token: try access.token())
    }

    /// A download sent with `token`.
    func downloadRequest(_ path: String, from offset: Int64, token: String) throws -> TransferRequest {
        let full = root + "/" + (try RemotePath.validated(path))
        var request = TransferRequest(url: contentBase + "/2/files/download")
        request.method = "POST"
        // An empty POST must not carry libcurl's default form Content-Type (Dropbox refuses it).
        request.headers = ["Dropbox-API-Arg: \(DropboxTransport.apiArgument(["path": full]))", "Content-Type:"]
        request.credentials = .bearer(token)
        request.resumeFrom = offset
        return request
    }

    public func verify(_ file: URL, against remote: RemoteFile) -> String? {
        guard let expected = remote.version else { return nil }
        guard let actual = try? DropboxContentHash.of(file: file) else { return "cannot read the download to check it" }
        return actual == expected ? nil : "its content hash is \(actual), Dropbox says \(expected)"
    }

    /// The answer to an RPC call (JSON in, JSON out) of `url` with `arguments`, whatever its status.
    func post(_ url: String, _ arguments: [String: Any]) throws -> TransferResponse {
        let body = Array(try JSONSerialization.data(withJSONObject: arguments, options: [.sortedKeys]))
        return try perform { token in
            TransferRequest(url: url, method: "POST", headers: ["Content-Type: application/json"], body: body, credentials: .bearer(token))
        }
    }

    /// The answer to the request `build` makes with the token to send; when Dropbox refuses the
    /// token (401) and the access renews it, the answer to the request made again with the new one.
    func perform(_ build: (String) throws -> TransferRequest) throws -> TransferResponse {
        let token = try access.token()
        let response = try session.perform(try build(token))
        guard Self.refusesToken(response.status, body: response.body), try access.renew(after: token) else { return response }
        return try session.perform(try build(try access.token()))
    }

    /// After a download of `request` failed with `failure`: whether its token was refused and a
    /// new one is ready, so the same download made again may succeed.
    public func renewsCredentials(after failure: TransferFailure, of request: TransferRequest) -> Bool {
        guard access.renews, case .http(let status, let body, _) = failure, Self.refusesToken(status, body: Array(body.utf8)),
              case .bearer(let token) = request.credentials else { return false }
        return (try? access.renew(after: token)) ?? false
    }

    /// Whether an answer refuses the access token (401 `expired_access_token` or
    /// `invalid_access_token`, as Dropbox documents its authentication errors).
    static func refusesToken(_ status: Int, body: [UInt8]) -> Bool {
        guard status == 401 else { return false }
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let summary = object?["error_summary"] as? String ?? String(decoding: body.prefix(200), as: UTF8.self)
        return summary.contains("expired_access_token") || summary.contains("invalid_access_token")
    }

    private func call(_ endpoint: String, _ arguments: [String: Any]) throws -> [String: Any] {
        let response = try post(apiBase + endpoint, arguments)
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        switch response.status {
        case 200:
            guard let object else { throw RemoteError.badListing("Dropbox answered with something that is not JSON") }
            return object
        case 401:
            throw TransportError.unauthorized(apiBase)
        case 409:
            let summary = object?["error_summary"] as? String ?? ""
            if summary.hasPrefix("path/not_found") { throw TransportError.notFound(arguments["path"] as? String ?? "") }
            throw TransportError.http(status: 409, url: apiBase + endpoint, detail: summary)
        default:
            throw TransportError.http(status: response.status, url: apiBase + endpoint, detail: object?["error_summary"] as? String ?? "",
                                      retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
    }

    /// `Dropbox-API-Arg` takes JSON with every non-ASCII character escaped (HTTP headers are ASCII).
    static func apiArgument(_ object: [String: String]) -> String {
        // Strings only: nothing JSONSerialization can refuse.
        (try? apiArgument(json: object)) ?? "{}"
    }

    /// ``apiArgument(_:)`` for any JSON object (nested modes, booleans).
    static func apiArgument(json object: [String: Any]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        var text = ""
        for unit in String(decoding: data, as: UTF8.self).utf16 {
            if unit < 0x7F {
                text.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            } else {
                text += String(format: "\\u%04x", unit)
            }
        }
        return text
    }
}
