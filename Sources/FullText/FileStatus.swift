import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file's size and modification time: what `update` compares to tell whether a file changed
/// without opening it.
struct FileStatus: Equatable {
    /// Size in bytes.
    var size: Int64
    /// Modification time in nanoseconds since 1970.
    var modified: Int64

    /// The status of the regular file at `path` (symbolic links followed), or nil when there is
    /// none (missing, a folder, a broken link).
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        #else
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        #endif
    }

    init(size: Int64, modified: Int64) {
        self.size = size
        self.modified = modified
    }
}
