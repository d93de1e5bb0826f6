import Foundation

/// Writes files so that a reader sees the old contents or the new, never a part: a temporary
/// file in the same folder, flushed to disk, then renamed over the target. A temporary file
/// that a killed writer left is removed by the next write of the same target.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        /// The system's error number (errno).
        public let code: Int32

        init(path: String, code: Int32) {
            self.path = path
            reason = String(cString: strerror(code))
            self.code = code
        }

        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `data` to `url` with permissions `mode` (a new file's; an existing file's are
    /// the caller's to pass), creating the folder when missing.
    ///
    /// `owner` (a user and a group id) is given to the new file where the system allows it (a
    /// file replaced keeps its owner when the writer may give it; else it becomes the writer's).
    /// `beforeReplacing` is called with the temporary file once it is on disk, before it takes
    /// `url`'s place: what it throws leaves `url` as it was (the temporary file removed) and is
    /// thrown on as it is.
    ///
    /// - Throws: ``WriteError`` (with the system's `code`) when the file cannot be written.
    public static func write(_ data: Data, to url: URL, mode: mode_t = 0o644, owner: (user: uid_t, group: gid_t)? = nil,
                             beforeReplacing: (URL) throws -> Void = { _ in }) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw WriteError(path: temporary.path, code: errno) }
        var failure: Int32 = 0
        if fchmod(descriptor, mode) != 0 { failure = errno }
        // Giving a file away fails for an ordinary user (EPERM): then it stays the writer's.
        if failure == 0, let owner, owner.user != geteuid() || owner.group != getegid() {
            _ = fchown(descriptor, owner.user, owner.group)
        }
        if failure == 0 { data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            failure = FileDescriptor.writeAll(descriptor, base, count: buffer.count)
        } }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(temporary.path)
            throw WriteError(path: url.path, code: failure)
        }
        do {
            try beforeReplacing(temporary)
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw WriteError(path: url.path, code: code)
        }
        flushFolder(folder.path)
        removeLeftovers(of: url)
    }

    /// Puts a finished file in place of `url` the way ``write(_:to:mode:)`` does: `file` (on
    /// the same file system) is flushed to disk, renamed over `url`, and `url`'s folder flushed,
    /// so that a crash leaves the old contents or the new, never a part.
    public static func moveIntoPlace(_ file: URL, to url: URL) throws {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError(path: url.path, code: errno) }
        let flushed = fsync(descriptor) == 0 ? 0 : errno
        close(descriptor)
        if flushed != 0 { throw WriteError(path: url.path, code: flushed) }
        guard rename(file.path, url.path) == 0 else { throw WriteError(path: url.path, code: errno) }
        flushFolder(url.deletingLastPathComponent().path)
    }

    /// Flushes a folder's entries to disk (a rename, a new folder or a removal in it is durable
    /// once this returns).
    public static func flushFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Removes the temporary files of `url` that writers killed before their rename left
    /// behind: those named for a process that is gone (each writer names its own by its pid).
    static func removeLeftovers(of url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            guard let pid = pid_t(name.dropFirst(prefix.count).dropLast(4)), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}
