import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which file, exactly, a document was read from: its device, inode, size, and the times it was
/// last modified and last changed (nanoseconds). Writing to the file, replacing it or setting its
/// modification time back changes the change time, which no program can set; so texts kept for
/// an identity (`RememberedPages`) are the texts of the file's present content.
public struct FileIdentity: Hashable, Sendable, Codable {
    /// The device the file is on (`st_dev`).
    public var device: UInt64
    /// Its inode number (`st_ino`).
    public var inode: UInt64
    /// Its size in bytes.
    public var size: Int64
    /// When its content was last modified, in nanoseconds since 1970 (`st_mtim`).
    public var modified: Int64
    /// When its inode last changed (a write, a rename onto it, new times), in nanoseconds since
    /// 1970 (`st_ctim`).
    public var changed: Int64

    /// An identity made of its parts (tests, and files that are no longer there).
    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// The identity of the open file `descriptor`, or nil when it cannot be read.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the file at `path` (followed through symbolic links), or nil.
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }
}
