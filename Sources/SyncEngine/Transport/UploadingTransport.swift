import Foundation

/// A transport that can also write a file back, conditionally: only over the version the change
/// was based on, so that a change made on the remote meanwhile is never overwritten. WebDAV
/// (`PUT` with `If-Match` / `If-None-Match: *`), Dropbox (`files/upload` in `update` or `add`
/// mode with `strict_conflict`), SFTP and folder remotes (the contents checked, a temporary file
/// renamed over the old one). Plain HTTP folders cannot be written.
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
}
