import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How bibread lists and fetches files of one kind of remote. Every transfer goes through
/// libcurl: a transport only builds the requests and reads the answers. (Those that can write
/// back are ``UploadingTransport``s; the one step libcurl cannot take, replacing a file on an
/// SFTP server, is ``SFTPClient``'s.)
public protocol Transport: Sendable {
    /// The files and folders directly in `folder` ("" is the root), in one request where the
    /// protocol allows.
    func list(_ folder: String) throws -> [RemoteFile]
    /// The request that downloads the file at `path`, resuming at `offset`.
    func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest
    /// Whether a finished download has the content hash the remote gives for the file
    /// (Dropbox's `content_hash`); nil when it has, or when the remote gives none, else what is
    /// wrong. (The sync checks every download's size itself.)
    func verify(_ file: URL, against remote: RemoteFile) -> String?
    /// After a download of `request` failed with `failure`: whether the transport renewed the
    /// credentials the remote refused (Dropbox's expired access token), so that the download
    /// made again (with ``downloadRequest(_:from:)``) may succeed. The sync then makes it again
    /// once, at once, saying nothing.
    func renewsCredentials(after failure: TransferFailure, of request: TransferRequest) -> Bool
}

extension Transport {
    /// Remotes without content hashes: nothing beyond the size to check.
    public func verify(_ file: URL, against remote: RemoteFile) -> String? { nil }

    /// Remotes whose credentials do not expire: nothing to renew.
    public func renewsCredentials(after failure: TransferFailure, of request: TransferRequest) -> Bool { false }

    /// The files and folders directly in `folder`, as ``list(_:)`` gives them; nil when there
    /// is no such folder (the remote answered ``TransportError/notFound(_:)``).
    public func listIfPresent(_ folder: String) throws -> [RemoteFile]? {
        do {
            return try list(folder)
        } catch TransportError.notFound {
            return nil
        }
    }
}
