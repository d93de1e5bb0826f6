import Foundation
import Glibc

/// One holder at a time, across processes and within one: an exclusive `flock(2)` on a lock
/// file. The kernel lets go of it when its process ends, however it ends, so a dead holder never
/// keeps it; the lock file stays (removing a lock file another process has open would let two
/// holders lock two different files). Two opens of one lock file exclude each other within one
/// process too. Closing the lock (or its going away) releases it.
///
/// The holder's process id is written in the file, so that a wait can say whom it waits for.
public final class ExclusiveFileLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock of the file at `url` (made, mode 0600, with its folder, mode 0700, when
    /// missing), waiting for as long as another holds it; `waiting` hears the holder's process
    /// id (nil when unknown) once, before the wait.
    ///
    /// - Throws: `SystemCallError` when the folder or the file cannot be made or opened, or
    ///   `flock` fails.
    public static func acquire(_ url: URL, waiting: (Int32?) -> Void = { _ in }) throws(SystemCallError) -> ExclusiveFileLock {
        try makeFolder(url.deletingLastPathComponent().path)
        let descriptor = try SystemCall.retrying("open") { open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        do throws(SystemCallError) {
            do throws(SystemCallError) {
                try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
            } catch where error.code == EWOULDBLOCK {
                waiting(holder(of: descriptor))
                try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX) }
            }
        } catch {
            close(descriptor)
            throw error
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return ExclusiveFileLock(descriptor: descriptor)
    }

    /// Runs `body` while holding the lock of the file at `url`, and lets go of it after.
    public static func whileHeld<Value>(_ url: URL, _ body: () throws -> Value) throws -> Value {
        let lock = try acquire(url)
        defer { lock.release() }
        return try body()
    }

    /// Runs `body`, which opens the SQLite file at `database` and creates or migrates its tables,
    /// while holding the lock of `<database>-setup.lock` beside it. Two processes opening a new
    /// store at once would otherwise both read "not migrated yet" and the second would fail on
    /// "table … already exists" (or on "database is locked" while the first switches it to WAL).
    public static func whileSettingUp<Value>(database: URL, _ body: () throws -> Value) throws -> Value {
        try whileHeld(URL(fileURLWithPath: database.path + "-setup.lock"), body)
    }

    /// Lets go of the lock.
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Makes the folder at `path` (mode 0700) and any missing above it.
    private static func makeFolder(_ path: String) throws(SystemCallError) {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return }
        let parent = (path as NSString).deletingLastPathComponent
        guard errno == ENOENT, !parent.isEmpty, parent != path else { throw SystemCallError(call: "mkdir \(path)", code: errno) }
        try makeFolder(parent)
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw SystemCallError(call: "mkdir \(path)", code: errno) }
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
