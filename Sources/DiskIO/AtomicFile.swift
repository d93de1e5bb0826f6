import Foundation

/// Writes files so that a reader sees the old contents or the new, never a part: a temporary
/// file in the same folder, flushed to disk, then renamed over the target. A temporary file
/// that a killed writer left is removed by the next write of the same target.
public enum AtomicFile {
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `data` to `url` with permissions `mode` (a new file's; an existing file's are
    /// the caller's to pass), creating the folder when missing.
    public static func write(_ data: Data, to url: URL, mode: mode_t = 0o644) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw WriteError(path: temporary.path, reason: String(cString: strerror(errno))) }
        var failure: String?
        if fchmod(descriptor, mode) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil { data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            let error = FileDescriptor.writeAll(descriptor, base, count: buffer.count)
            if error != 0 { failure = String(cString: strerror(error)) }
        } }
        if failure == nil && fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if let failure {
            unlink(temporary.path)
            throw WriteError(path: url.path, reason: failure)
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw WriteError(path: url.path, reason: reason)
        }
        flushFolder(folder.path)
        removeLeftovers(of: url)
    }

    /// Puts a finished file in place of `url` the way ``write(_:to:mode:)`` does: `file` (on
    /// the same file system) is flushed to disk, renamed over `url`, and `url`'s folder flushed,
    /// so that a crash leaves the old contents or the new, never a part.
    public static func moveIntoPlace(_ file: URL, to url: URL) throws {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WriteError(path: url.path, reason: String(cString: strerror(errno))) }
        let flushed = fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
        close(descriptor)
        if let flushed { throw WriteError(path: url.path, reason: flushed) }
        guard rename(file.path, url.path) == 0 else { throw WriteError(path: url.path, reason: String(cString: strerror(errno))) }
        flushFolder(url.deletingLastPathComponent().path)
    }

    /// Flushes a folder's entries to disk (a rename in it is durable once this returns).
    private static func flushFolder(_ path: String) {
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
