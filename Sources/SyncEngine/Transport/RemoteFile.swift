import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file or folder on a remote, as its listing describes it.
public struct RemoteFile: Sendable, Equatable {
    /// The path from the remote's root (`papers/knuth84.pdf`).
    public var path: String
    public var size: Int64?
    /// What changes when the content changes: an ETag, Dropbox's content hash, or size and
    /// modification time where nothing better exists.
    public var version: String?
    /// Modification time, seconds since 1970.
    public var modified: Double?
    public var isFolder: Bool

    public init(path: String, size: Int64?, version: String?, modified: Double?, isFolder: Bool = false) {
        self.path = path
        self.size = size
        self.version = version
        self.modified = modified
        self.isFolder = isFolder
    }
}
