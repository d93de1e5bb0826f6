import DiskIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writing back to a folder remote: the file is read and compared (size, then SHA-256) with the
/// version the change was based on, then replaced the way every bibread write is (``AtomicFile``:
/// a temporary file in the same folder, flushed, renamed over the old one, the folder flushed),
/// keeping the old file's permissions, and read back to check it. A process killed at any moment
/// leaves the old file or the new.
///
/// A folder has no conditional write: another program that writes the file between the
/// comparison and the rename (a moment) is not seen by the rename; the read-back then fails the
/// upload instead of calling it done. A removal compares the same way, then unlinks the file and
/// flushes its folder; a program that writes the file in that moment loses its write.
///
/// Folders are made as `mkdir -p` makes them (permissions 0777 less the umask, as the folder an
/// upload makes for itself), each one's parent flushed to disk.
extension FolderTransport: UploadingTransport {
    public func download(_ path: String) throws -> VersionedContents? {
        try remoteBytes(path).map { VersionedContents(contents: $0, version: .content($0)) }
    }

    /// The bytes of the file at `path`; nil when there is no file.
    private func remoteBytes(_ path: String) throws -> [UInt8]? {
        let local = try localPath(path)
        guard let data = FileManager.default.contents(atPath: local) else {
            var status = stat()
            if lstat(local, &status) != 0 && errno == ENOENT { return nil }
            throw TransportError.uploadFailed(path: path, reason: "cannot read \(local)")
        }
        return Array(data)
    }

    public func version(ofDownload file: URL, listed remote: RemoteFile, headers: [String: String]) throws -> RemoteVersion? {
        .content(Array(try Data(contentsOf: file)))
    }

    public func upload(_ contents: [UInt8], to path: String, replacing expected: RemoteVersion?) throws -> RemoteVersion {
        let local = try localPath(path)
        guard RemoteVersion.content(try remoteBytes(path), matches: expected) else { throw TransportError.remoteChanged(path) }
        var status = stat()
        let mode = lstat(local, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        do {
            try AtomicFile.write(Data(contents), to: URL(fileURLWithPath: local), mode: mode)
        } catch let failure as AtomicFile.WriteError {
            throw TransportError.uploadFailed(path: path, reason: failure.reason)
        }
        guard try remoteBytes(path) == contents else {
            throw TransportError.uploadFailed(path: path, reason: "written, but the file changed again at once")
        }
        return .content(contents)
    }

    public func createFolder(_ path: String) throws {
        let safe = try RemotePath.validated(path)
        var local = root.path
        var made = ""
        for component in safe.split(separator: "/") {
            let parent = local
            local += (local.hasSuffix("/") ? "" : "/") + component
            made += (made.isEmpty ? "" : "/") + component
            do {
                try SystemCall.retrying("mkdir") { mkdir(local, 0o777) }
                AtomicFile.flushFolder(parent)
                continue
            } catch let failure where failure.code != EEXIST {
                throw TransportError.folderNotCreated(path: safe, reason: "cannot make \(local): \(failure.reason)")
            } catch {}
            // Something is there already: a folder is what was asked for.
            var status = stat()
            guard lstat(local, &status) == 0 else { throw TransportError.folderNotCreated(path: safe, reason: "\(local) went away at once") }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: continue
            case S_IFLNK: throw RemoteError.unsafePath(path, reason: "\(local) is a symbolic link")
            default: throw TransportError.folderNotCreated(path: safe, reason: "\(made) is a file")
            }
        }
    }

    public func remove(_ path: String, ifVersion expected: RemoteVersion) throws {
        let local = try localPath(path)
        let bytes: [UInt8]?
        do {
            bytes = try remoteBytes(path)
        } catch TransportError.uploadFailed(_, let reason) {
            throw TransportError.removalFailed(path: path, reason: reason)
        }
        guard let bytes else { return }
        guard RemoteVersion.content(bytes, matches: expected) else { throw TransportError.remoteChanged(path) }
        do {
            try SystemCall.retrying("unlink") { unlink(local) }
        } catch let failure where failure.code == ENOENT {
            return
        } catch {
            throw TransportError.removalFailed(path: path, reason: error.reason)
        }
        AtomicFile.flushFolder((local as NSString).deletingLastPathComponent)
    }
}
