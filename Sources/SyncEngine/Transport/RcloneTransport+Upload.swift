import Foundation

/// Writing back through rclone, with the best check every backend allows: rclone has no
/// conditional write, so the file is read and compared (size, then SHA-256) with the version
/// the change was based on, the new contents go to a temporary name beside it
/// (`.bibread-upload-…part`, `rclone rcat`), the file's size and modification time (or hash) are
/// compared once more right before it is replaced, and the temporary file is moved over it.
///
/// rclone's `moveto` over an existing file first deletes that file, then moves (a rename on
/// local disks, SFTP and WebDAV; a server-side copy and delete on object stores): a kill in
/// between would leave no file at all. So the move is `moveto --suffix .bibread-replaced`, which
/// moves the old file aside (`library.bib.bibread-replaced`) instead of deleting it, and the
/// put-aside file is deleted once the new one is in place. A kill between the two moves leaves
/// the old file under its put-aside name; the next listing, download or upload of any machine
/// puts it back (``RcloneTransport/restorePutAside(of:)``). So killed at any moment, an upload
/// leaves the old file or the new, for whoever looks next; a temporary file left behind goes
/// with a later upload to its folder once it is an hour old (as over SFTP). Versions are the
/// contents' size and SHA-256, as for SFTP and folders. What another program writes between the
/// last comparison and the move (a moment) is not seen: no backend lets rclone make the move
/// conditional.
extension RcloneTransport: UploadingTransport {
    public func download(_ path: String) throws -> VersionedContents? {
        try contents(path).map { VersionedContents(contents: $0, version: .content($0)) }
    }

    /// The bytes of the file at `path`; nil when there is none.
    private func contents(_ path: String) throws -> [UInt8]? {
        guard let entry = try entryPuttingBack(path) else { return nil }
        // `rclone cat` of a folder would give every file in it, one after the other.
        if entry.isFolder { throw TransportError.uploadFailed(path: path, reason: "it is a folder on the remote") }
        let outcome = try program.run(["cat", try location.rclonePath(path)])
        if outcome.isNotFound { return nil }
        guard outcome.status == 0 else { throw outcome.failure }
        return outcome.output
    }

    public func version(ofDownload file: URL, listed remote: RemoteFile, headers: [String: String]) throws -> RemoteVersion? {
        .content(Array(try Data(contentsOf: file)))
    }

    public func upload(_ contents: [UInt8], to path: String, replacing expected: RemoteVersion?) throws -> RemoteVersion {
        let target = try location.rclonePath(path)
        let before = try entryPuttingBack(path)
        let current = try before == nil ? nil : self.contents(path)
        guard RemoteVersion.content(current, matches: expected) else { throw TransportError.remoteChanged(path) }
        let safe = try RemotePath.validated(path)
        let folder = (safe as NSString).deletingLastPathComponent
        let temporary = try location.rclonePath((folder.isEmpty ? "" : folder + "/") + SFTPTransport.temporaryName(startedAt: Date()))
        func failed(_ reason: String) -> TransportError {
            _ = try? program.run(["deletefile", temporary])
            return .uploadFailed(path: path, reason: "\(reason); the remote file is unchanged")
        }
        let written = try program.run(["rcat", temporary], input: contents)
        guard written.status == 0 else { throw failed(written.failure.description) }
        // The last look before the move: still the file that was compared.
        let now = try entry(path)
        guard now?.size == before?.size, now?.version == before?.version, now?.isFolder == before?.isFolder else {
            _ = try? program.run(["deletefile", temporary])
            throw TransportError.remoteChanged(path)
        }
        // --ignore-times: moveto would skip a move over a file of the same size and time (and
        // delete the temporary file), keeping the old contents. --suffix: the old file is moved
        // aside, not deleted, before the new one is moved in (see above).
        let moved = try program.run(["moveto", "--ignore-times", "--suffix", Self.putAsideSuffix, temporary, target])
        guard moved.status == 0 else {
            // Failed between its two moves, it leaves the old file aside: put it back now.
            try? restorePutAside(of: path)
            throw failed(moved.failure.description)
        }
        if before != nil { _ = try? program.run(["deletefile", try location.rclonePath(path + Self.putAsideSuffix)]) }
        // The temporary files of uploads killed on the way, an hour old or more (best effort).
        _ = try? program.run(["delete", "--max-depth", "1", "--min-age", "\(Int(SFTPTransport.abandonedUploadAge))s",
                              "--include", "/.bibread-upload-*.part", try location.rclonePath(folder)])
        return .content(contents)
    }

    public func createFolder(_ path: String) throws {
        let safe = try RemotePath.validated(path)
        let existing: RemoteFile?
        do {
            existing = try entry(safe)
        } catch {
            // Some servers refuse to describe a path below a file (lighttpd: 403).
            if let file = try fileInTheWay(of: safe) { throw TransportError.folderNotCreated(path: safe, reason: "\(file) is a file") }
            throw error
        }
        if let existing {
            if existing.isFolder { return }
            throw TransportError.folderNotCreated(path: safe, reason: "\(safe) is a file")
        }
        let made = try program.run(["mkdir", try location.rclonePath(safe)])
        guard made.status == 0 else {
            if let file = try fileInTheWay(of: safe) { throw TransportError.folderNotCreated(path: safe, reason: "\(file) is a file") }
            throw TransportError.folderNotCreated(path: safe, reason: made.failure.description)
        }
    }

    public func remove(_ path: String, ifVersion expected: RemoteVersion) throws {
        let bytes: [UInt8]?
        do {
            bytes = try contents(path)
        } catch let failure as TransferFailure {
            throw TransportError.removalFailed(path: path, reason: failure.description)
        }
        guard let bytes else { return }
        guard RemoteVersion.content(bytes, matches: expected) else { throw TransportError.remoteChanged(path) }
        let removed = try program.run(["deletefile", try location.rclonePath(path)])
        // rclone says the same of a file that is not there: removed meanwhile is no error.
        guard try removed.status == 0 || entry(path) == nil else {
            throw TransportError.removalFailed(path: path, reason: removed.failure.description)
        }
    }

    /// What rclone appends to a file's name when it moves the file aside to replace it.
    static let putAsideSuffix = ".bibread-replaced"

    /// The path of the file that `path` is the put-aside copy of, when it is one.
    static func originalPath(ofPutAside path: String) -> String? {
        guard path.hasSuffix(putAsideSuffix), path.count > putAsideSuffix.count,
              !path.hasSuffix("/" + putAsideSuffix) else { return nil }
        return String(path.dropLast(putAsideSuffix.count))
    }

    /// The file at `path`, after putting back its put-aside copy when an upload was cut short
    /// between its two moves (the file itself is missing then); nil when there is neither.
    func entryPuttingBack(_ path: String) throws -> RemoteFile? {
        if let entry = try entry(path) { return entry }
        guard try entry(path + Self.putAsideSuffix) != nil else { return nil }
        try restorePutAside(of: path)
        return try entry(path)
    }

    /// Moves the put-aside copy of `path` back to `path`, when `path` is missing. The move has
    /// no file to replace, so rclone deletes nothing; two machines doing it at once are fine
    /// (the second finds nothing to move).
    func restorePutAside(of path: String) throws {
        let putAside = try location.rclonePath(path + Self.putAsideSuffix)
        guard try entry(path) == nil else { return }
        let moved = try program.run(["moveto", putAside, try location.rclonePath(path)])
        guard try moved.status == 0 || moved.isNotFound || entry(path) != nil else {
            throw TransportError.uploadFailed(path: path, reason: "cannot put back \(path + Self.putAsideSuffix), left by an upload cut short: \(moved.failure)")
        }
    }
}
