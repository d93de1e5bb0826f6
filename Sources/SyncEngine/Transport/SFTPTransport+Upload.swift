import Foundation

/// Writing back over SFTP, which has no conditional write: the remote file is read and compared
/// (size, then SHA-256) with the version the change was based on; the new contents go to a
/// temporary name in the same folder (`put -f`: flushed to the server's disk), which is then
/// renamed over the file in one step (`posix-rename@openssh.com`, see ``SFTPClient``); the file
/// is read back to check it.
///
/// Killed at any moment, this leaves the remote file old or new: at worst a temporary
/// `.bibread-upload-….part` beside it. (Killed after the batch started, the `sftp` program may
/// still finish the rename.) A change another client makes between the comparison and the
/// rename (a few round trips) is not seen by the rename; the read-back then fails the upload
/// instead of calling it done. The new file has the permissions of a new file (0644), not the
/// old one's.
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
        let fullPath = SFTPClient.serverPath(ofURLPath: URLComponents(string: root)?.percentEncodedPath ?? "/") + safe
        let folder = (fullPath as NSString).deletingLastPathComponent
        let name = (fullPath as NSString).lastPathComponent
        let temporaryName = ".bibread-upload-\(UUID().uuidString).part"
        let local = FileManager.default.temporaryDirectory.appendingPathComponent(temporaryName)
        // Its permissions become the new remote file's: a library's usual ones.
        guard FileManager.default.createFile(atPath: local.path, contents: Data(contents), attributes: [.posixPermissions: 0o644]) else {
            throw TransportError.uploadFailed(path: path, reason: "cannot write a temporary copy in \(local.deletingLastPathComponent().path)")
        }
        defer { try? FileManager.default.removeItem(at: local) }
        let enter = "cd \(try SFTPClient.quoted(folder.isEmpty ? "." : folder))"
        do {
            try client.run([enter, "put -f \(try SFTPClient.quoted(local.path)) \(temporaryName)",
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

    /// libcurl's CURLE_REMOTE_FILE_NOT_FOUND.
    static let remoteFileNotFound = 78
}
