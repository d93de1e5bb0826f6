import DiskIO
import Foundation

/// One writer of a library file at a time, across processes: an exclusive `flock(2)` on a lock
/// file under the state folder (`locks/<hash of the file's path>.lock`), not in the user's
/// library folder. The kernel lets go of it when its process ends, however it ends, so a dead
/// writer never holds it; the file stays (removing a lock file another process has open would
/// let two writers lock two different files). Closing the lock (or its going away) releases it.
final class LibraryWriteLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock at `url`, waiting for as long as another process holds it; `waiting` hears
    /// the holder's process id (nil when unknown) once, before the wait.
    static func acquire(_ url: URL, for path: String, waiting: (Int32?) -> Void) throws(LibraryWriteError) -> LibraryWriteLock {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .lockFailed(path: path, reason: "cannot make \(url.deletingLastPathComponent().path): \(error.localizedDescription)")
        }
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .lockFailed(path: path, reason: "\(url.path): \(String(cString: strerror(errno)))") }
        do throws(SystemCallError) {
            do throws(SystemCallError) {
                try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
            } catch where error.code == EWOULDBLOCK {
                waiting(holder(of: descriptor))
                try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX) }
            }
        } catch {
            close(descriptor)
            throw .lockFailed(path: path, reason: "\(url.path): \(error.description)")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return LibraryWriteLock(descriptor: descriptor)
    }

    /// Lets go of the lock.
    func release() {
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
