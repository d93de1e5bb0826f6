import Foundation

/// A remote of the user's own rclone configuration (`rclone:REMOTE:path`): Google Drive,
/// OneDrive, S3, a crypt remote… whatever rclone reaches, through the `rclone` program itself
/// (see docs/RCLONE.md for why not its remote-control API or `rclone serve webdav`).
///
/// A folder is listed with one `rclone lsjson`; a file's version is the hash rclone lists for it
/// when the backend has one without reading the file (S3's MD5, Drive's…), else its size and
/// modification time. Downloads are `rclone cat --offset N` into the `.part` file, several at
/// a time (``download(_:parallel:progress:isCancelled:finished:)``), so a download resumes where
/// the backend can seek. Writes (`RcloneTransport+Upload.swift`) go to a temporary name, then
/// `rclone moveto --suffix`, after checking that the file there is still the version the change
/// was based on; a listing puts back a file whose replacement a kill cut short.
public struct RcloneTransport: Transport {
    public let location: RcloneLocation
    let program: RcloneProgram
    private let features: RcloneFeatures

    /// The transport for `url` (`rclone:REMOTE:path`); throws
    /// ``RemoteError/missingProgram(name:advice:)`` when rclone is not installed.
    public init(url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        location = try RcloneLocation(url: url)
        program = try RcloneProgram(environment: environment)
        features = RcloneFeatures()
    }

    public func list(_ folder: String) throws -> [RemoteFile] {
        let files = try listOnce(folder)
        // A file whose replacement was cut short between its two moves is under its put-aside
        // name only: put it back (it is the file's last whole version), then list again.
        let names = Set(files.map(\.path))
        let cutShort = files.filter { file in
            guard let original = Self.originalPath(ofPutAside: file.path) else { return false }
            return !file.isFolder && !names.contains(original)
        }
        guard !cutShort.isEmpty else { return files }
        for file in cutShort {
            if let original = Self.originalPath(ofPutAside: file.path) { try restorePutAside(of: original) }
        }
        return try listOnce(folder)
    }

    private func listOnce(_ folder: String) throws -> [RemoteFile] {
        let outcome = try program.run(["lsjson"] + features.listingOptions(of: location.root, program) + [try location.rclonePath(folder)])
        if outcome.isNotFound { throw TransportError.notFound(folder.isEmpty ? location.root : folder) }
        guard outcome.status == 0 else { throw outcome.failure }
        return try RcloneListing.decode(outcome.output, single: false).compactMap { entry in
            // A name rclone gives is one name; anything that is not (".", "..", a "/") is skipped.
            guard !entry.name.isEmpty, entry.name != ".", entry.name != "..", !entry.name.contains("/") else { return nil }
            return entry.remoteFile(at: folder.isEmpty ? entry.name : "\(folder)/\(entry.name)")
        }.sorted { $0.path < $1.path }
    }

    /// The file or folder at `path` (`rclone lsjson --stat`); nil when there is none.
    func entry(_ path: String) throws -> RemoteFile? {
        let outcome = try program.run(["lsjson", "--stat"] + features.listingOptions(of: location.root, program) + [try location.rclonePath(path)])
        if outcome.isNotFound { return nil }
        guard outcome.status == 0 else { throw outcome.failure }
        return try RcloneListing.decode(outcome.output, single: true).first?.remoteFile(at: path)
    }

    /// A request that only this transport carries out (``download(_:parallel:progress:isCancelled:finished:)``):
    /// the file's rclone path and where to start.
    public func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest {
        var request = TransferRequest(url: try location.rclonePath(path))
        request.resumeFrom = offset
        return request
    }
}
