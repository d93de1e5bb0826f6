import Foundation

/// A transport that can also write a file back, conditionally: only over the version the change
/// was based on, so that a change made on the remote meanwhile is never overwritten. WebDAV
/// (`PUT` with `If-Match` / `If-None-Match: *`), Dropbox (`files/upload` in `update` or `add`
/// mode with `strict_conflict`), SFTP and folder remotes (the contents checked, a temporary file
/// renamed over the old one). Plain HTTP folders cannot be written.
///
/// It also makes folders (``createFolder(_:)``: WebDAV `MKCOL` for each missing level, Dropbox
/// `files/create_folder_v2`, SFTP `mkdir` commands, a folder's `mkdir -p`) and removes a file
/// only while it is the version a listing, download or upload gave (``remove(_:ifVersion:)``:
/// WebDAV `DELETE` with `If-Match`, Dropbox `files/delete_v2` with `parent_rev`, SFTP and
/// folders by size and hash, then `rm` or `unlink`).
///
/// An upload interrupted at any moment (the program killed, the server gone) leaves the remote
/// file as it was or as uploaded, never cut short.
public protocol UploadingTransport: Transport {
    /// The file at `path` with its version, read in one request where the protocol allows; nil
    /// when there is no file there.
    func download(_ path: String) throws -> VersionedContents?

    /// The version of a copy of `remote` that a sync downloaded to `file`, given the headers of
    /// the answer that brought it; nil when the remote gave none.
    func version(ofDownload file: URL, listed remote: RemoteFile, headers: [String: String]) throws -> RemoteVersion?

    /// Writes `contents` to `path` if the remote file there is still `expected` (with nil: if
    /// there is no file there), and returns the version it now is.
    ///
    /// Throws ``TransportError/remoteChanged(_:)`` when the remote file is another version (or
    /// appeared, or went away); nothing is written then.
    func upload(_ contents: [UInt8], to path: String, replacing expected: RemoteVersion?) throws -> RemoteVersion

    /// Makes the folder at `path` (from the remote's root) and every missing folder above it;
    /// a folder already there is no error.
    ///
    /// Throws ``TransportError/folderNotCreated(path:reason:)`` when a file is in the way (at
    /// `path` or above it) or the remote refuses.
    func createFolder(_ path: String) throws

    /// Removes the file at `path` if it is still version `expected`, as ``download(_:)``,
    /// ``upload(_:to:replacing:)`` or ``version(ofDownload:listed:headers:)`` gave it (a
    /// listing's ``RemoteFile/version`` is such a version over WebDAV only: Dropbox lists the
    /// content hash, not the `rev`, and SFTP and folders list the size and time). A file that
    /// is not there (removed already, by this machine or another) is no error: removing is
    /// idempotent.
    ///
    /// Throws ``TransportError/remoteChanged(_:)`` when the file there is another version;
    /// nothing is removed then.
    func remove(_ path: String, ifVersion expected: RemoteVersion) throws
}

extension UploadingTransport {
    /// The first of `path` and the folders above it that is a file, found by listing each
    /// one's folder (to say what is in the way once a folder could not be made); nil when none is.
    func fileInTheWay(of path: String) throws -> String? {
        var level = ""
        for name in path.split(separator: "/") {
            let parent = level
            level += (level.isEmpty ? "" : "/") + name
            guard let entry = try listIfPresent(parent)?.first(where: { $0.path == level }) else { return nil }
            if !entry.isFolder { return level }
        }
        return nil
    }
}
