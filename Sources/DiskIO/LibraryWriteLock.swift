import Checksums
import Foundation
import Glibc

/// One writer of a library file at a time, across processes and across bibread's parts: the
/// writer of an edit (`LibraryFileWriter`) and a sync's push (which reads the synced copy, merges
/// and replaces it) take the same lock, so that neither's write falls between the other's read
/// and write. It is an exclusive `flock(2)` on a lock file under the state folder
/// (`locks/<SHA-256 of the file's resolved path>.lock`), not in the user's library folder. The
/// kernel lets go of it when its process ends, however it ends, so a dead writer never holds
/// it; the file stays (removing a lock file another process has open would let two writers lock
/// two different files). Closing the lock (or its going away) releases it. Two opens of one lock
/// file exclude each other within one process too.
public final class LibraryWriteLock {
    /// Why the lock could not be taken: the lock file's folder or the lock file could not be made
    /// or opened, or `flock` failed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The library file that was to be locked, and why it could not be.
        public let path: String, reason: String

        public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }

        public var description: String { "cannot lock \(path) against other writers: \(reason)" }
    }

    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

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
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(path: path, reason: "cannot make \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Failure(path: path, reason: "\(url.path): \(String(cString: strerror(errno)))") }
        do throws(SystemCallError) {
            do throws(SystemCallError) {
                try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
            } catch where error.code == EWOULDBLOCK {
                waiting(holder(of: descriptor))
                try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX) }
            }
        } catch {
            close(descriptor)
            throw Failure(path: path, reason: "\(url.path): \(error.description)")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return LibraryWriteLock(descriptor: descriptor)
    }

    /// Lets go of the lock.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// The process id the lock file names, when that process is still running.
    private static func holder(of descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0, let pid = Int32(String(decoding: buffer.prefix(count), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0, kill(pid, 0) == 0 || errno != ESRCH else { return nil }
        return pid
    }
}
