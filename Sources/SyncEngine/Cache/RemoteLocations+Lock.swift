import DiskIO
import Foundation

extension RemoteLocations {
    /// Takes the write lock of the synced copy at `local` (the lock every edit of it takes:
    /// ``LibraryWriteLock``), waiting for an edit in progress to end; nil when there is no copy
    /// yet (nothing can be editing it).
    func lockCopy(_ local: URL) throws -> LibraryWriteLock? {
        guard let resolved = realpath(local.path, nil) else {
            if errno == ENOENT { return nil }
            throw LibraryWriteLock.Failure(path: local.path, reason: String(cString: strerror(errno)))
        }
        let path = String(cString: resolved)
        free(resolved)
        return try LibraryWriteLock.acquire(forFile: path, state: state)
    }
}
