import Checksums
import Foundation

/// One writer of a library file at a time, across processes and across bibread's parts: the
/// writer of an edit (`LibraryFileWriter`) and a sync's push (which reads the synced copy, merges
/// and replaces it) take the same lock, so that neither's write falls between the other's read
/// and write. It is an `ExclusiveFileLock` on a lock file under the state folder
/// (`locks/<SHA-256 of the file's resolved path>.lock`), not in the user's library folder: a
/// dead writer never holds it. Releasing the lock (or its going away) lets go of it.
public final class LibraryWriteLock {
    /// Why the lock could not be taken: the lock file's folder or the lock file could not be made
    /// or opened, or `flock` failed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The library file that was to be locked, and why it could not be.
        public let path: String, reason: String

        public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }

        public var description: String { "cannot lock \(path) against other writers: \(reason)" }
    }

    private let lock: ExclusiveFileLock

    private init(lock: ExclusiveFileLock) {
        self.lock = lock
    }

    /// The lock file of the library file at `resolvedPath` (absolute, every link resolved), under
    /// bibread's state folder `state` (`$XDG_STATE_HOME/bibread`).
    public static func url(forFile resolvedPath: String, state: URL) -> URL {
        state.appendingPathComponent("locks").appendingPathComponent("\(SHA256.hex(of: Array(resolvedPath.utf8))).lock")
    }

    /// Takes the lock of the library file at `resolvedPath`, waiting for as long as another
    /// holds it; `waiting` hears the holder's process id (nil when unknown) once, before the wait.
    public static func acquire(forFile resolvedPath: String, state: URL,
                               waiting: (Int32?) -> Void = { _ in }) throws(Failure) -> LibraryWriteLock {
        try acquire(url(forFile: resolvedPath, state: state), for: resolvedPath, waiting: waiting)
    }

    /// Takes the lock at `url` (of the library file `path`), waiting for as long as another
    /// holds it; `waiting` hears the holder's process id (nil when unknown) once, before the wait.
    public static func acquire(_ url: URL, for path: String, waiting: (Int32?) -> Void) throws(Failure) -> LibraryWriteLock {
        do throws(SystemCallError) {
            return LibraryWriteLock(lock: try ExclusiveFileLock.acquire(url, waiting: waiting))
        } catch {
            throw Failure(path: path, reason: "\(url.path): \(error.description)")
        }
    }

    /// Lets go of the lock.
    public func release() {
        lock.release()
    }
}
