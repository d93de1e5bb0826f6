import Foundation

/// Writing back over SFTP, which has no conditional write: the remote file is read and compared
/// (size, then SHA-256) with the version the change was based on; the new contents go to a
/// temporary name in the same folder (`put -f`: flushed to the server's disk), which is then
/// renamed over the file in one step (`posix-rename@openssh.com`, see ``SFTPClient``); the file
/// is read back to check it.
///
/// Killed at any moment, this leaves the remote file old or new: at worst a temporary
/// `.bibread-upload-SECONDS-UUID.part` beside it, which the next upload to that folder removes
/// once it is an hour old. (If only bibread is killed, the `sftp` program it started may still
/// finish the rename.) A change another client makes between the comparison and the
/// rename (a few round trips) is not seen by the rename; the read-back then fails the upload
/// instead of calling it done. The new file has the permissions of a new file (0644), not the
/// old one's.
///
/// Folders are made and files removed with libcurl's SFTP quote commands (`mkdir`, `rm`), sent
/// before a listing of the folder: `*mkdir` for each level (the `*` lets a level that is there
/// already fail), the listing then proving the folder is there; a removal compares the file
/// with the version first, as an upload does.
extension SFTPTransport: UploadingTransport {
    public func download(_ path: String) throws -> VersionedContents? {
        try remoteBytes(path).map { VersionedContents(contents: $0, version: .content($0)) }
    }

    /// The bytes of the file at `path`; nil when there is no file.
    private func remoteBytes(_ path: String) throws -> [UInt8]? {
        do {
            return try session.perform(TransferRequest(url: try url(of: path), credentials: credentials)).body
        } catch TransferFailure.curl(let code, _) where code == Self.remoteFileNotFound {
            return nil
        }
    }

    public func version(ofDownload file: URL, listed remote: RemoteFile, headers: [String: String]) throws -> RemoteVersion? {
        .content(Array(try Data(contentsOf: file)))
    }

    public func upload(_ contents: [UInt8], to path: String, replacing expected: RemoteVersion?) throws -> RemoteVersion {
        let safe = try RemotePath.validated(path)
        guard RemoteVersion.content(try remoteBytes(safe), matches: expected) else { throw TransportError.remoteChanged(path) }
        let client = try SFTPClient(url: root, credentials: credentials)
        let fullPath = serverPath(of: safe)
        let folder = (fullPath as NSString).deletingLastPathComponent
        let name = (fullPath as NSString).lastPathComponent
        let temporaryName = Self.temporaryName(startedAt: Date())
        // The temporary files of uploads killed on the way, an hour old or more, go first.
        let siblings = (try? list((safe as NSString).deletingLastPathComponent)) ?? []
        let abandoned = siblings.map { ($0.path as NSString).lastPathComponent }.filter { Self.isAbandonedUpload($0, now: Date()) }
        let local = FileManager.default.temporaryDirectory.appendingPathComponent(temporaryName)
        // Its permissions become the new remote file's: a library's usual ones.
        guard FileManager.default.createFile(atPath: local.path, contents: Data(contents), attributes: [.posixPermissions: 0o644]) else {
            throw TransportError.uploadFailed(path: path, reason: "cannot write a temporary copy in \(local.deletingLastPathComponent().path)")
        }
        defer { try? FileManager.default.removeItem(at: local) }
        let enter = "cd \(try SFTPClient.quoted(folder.isEmpty ? "." : folder))"
        do {
            try client.run([enter] + abandoned.map { "-rm \($0)" } + ["put -f \(try SFTPClient.quoted(local.path)) \(temporaryName)",
                            "rename \(temporaryName) \(try SFTPClient.quoted(name))"])
        } catch let failure as SFTPClientError {
            try? client.run([enter, "-rm \(temporaryName)"])
            let hint = failure.message.contains("rename") ? " (the server may lack OpenSSH's posix-rename, which replaces a file in one step)" : ""
            throw TransportError.uploadFailed(path: path, reason: "\(failure.message)\(hint); the remote file is unchanged")
        }
        guard try remoteBytes(safe) == contents else {
            throw TransportError.uploadFailed(path: path, reason: "uploaded, but the remote file changed again at once")
        }
        return .content(contents)
    }

    public func createFolder(_ path: String) throws {
        let safe = try RemotePath.validated(path)
        let levels = safe.split(separator: "/").reduce(into: [String]()) { levels, name in
            levels.append(levels.last.map { "\($0)/\(name)" } ?? String(name))
        }
        var request = TransferRequest(url: try url(of: safe) + "/")
        request.credentials = credentials
        request.quote = try levels.map { "*mkdir \(try SFTPClient.quoted(serverPath(of: $0)))" }
        do {
            _ = try session.perform(request)
        } catch TransferFailure.curl(let code, let message) where code == Self.remoteFileNotFound {
            // Not listed after the mkdirs: a file in the way, or the server refused one.
            let reason = try fileInTheWay(of: safe).map { "\($0) is a file" } ?? message
            throw TransportError.folderNotCreated(path: safe, reason: reason)
        }
    }

    public func remove(_ path: String, ifVersion expected: RemoteVersion) throws {
        let safe = try RemotePath.validated(path)
        guard let bytes = try remoteBytes(safe) else { return }
        guard RemoteVersion.content(bytes, matches: expected) else { throw TransportError.remoteChanged(path) }
        let folder = (safe as NSString).deletingLastPathComponent
        // HEAD of the folder: the command, and no listing.
        var request = TransferRequest(url: root + (folder.isEmpty ? "" : URLText.encodedPath(folder) + "/"), method: "HEAD")
        request.credentials = credentials
        request.quote = ["rm \(try SFTPClient.quoted(serverPath(of: safe)))"]
        do {
            _ = try session.perform(request)
        } catch TransferFailure.curl(let code, let message) where code == Self.quoteFailed {
            // Removed meanwhile by another: what was asked for.
            guard try remoteBytes(safe) == nil else { throw TransportError.removalFailed(path: path, reason: message) }
        }
    }

    /// The server's file system path of a remote path, as the commands name it.
    private func serverPath(of path: String) -> String {
        SFTPClient.serverPath(ofURLPath: URLComponents(string: root)?.percentEncodedPath ?? "/") + path
    }

    /// How old the temporary file of an upload is when the next upload takes it for one that was
    /// killed on the way and removes it, in seconds.
    static let abandonedUploadAge = 3600.0

    /// The temporary name of an upload started at `time`: `.bibread-upload-SECONDS-UUID.part`.
    static func temporaryName(startedAt time: Date) -> String {
        ".bibread-upload-\(Int(time.timeIntervalSince1970))-\(UUID().uuidString).part"
    }

    /// Whether `name` is the temporary file of an upload started ``abandonedUploadAge`` or
    /// more before `now` (only names ``temporaryName(startedAt:)`` makes, which need no quoting).
    static func isAbandonedUpload(_ name: String, now: Date) -> Bool {
        let prefix = ".bibread-upload-", suffix = ".part"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return false }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard let dash = middle.firstIndex(of: "-"), let started = Double(middle[..<dash]),
              middle[middle.index(after: dash)...].allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") }) else { return false }
        return now.timeIntervalSince1970 - started >= abandonedUploadAge
    }

    /// libcurl's CURLE_REMOTE_FILE_NOT_FOUND.
    static let remoteFileNotFound = 78
    /// libcurl's CURLE_QUOTE_ERROR: a quote command failed.
    static let quoteFailed = 21
}
