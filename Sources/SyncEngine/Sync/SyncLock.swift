import BibModel
import DiskIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One sync of a remote at a time: an exclusive `flock(2)` on `.bibread-sync.lock` in the
/// remote's library folder, held through the open file until ``release()`` (or until the
/// object goes away). The kernel lets go of it when the process ends, however it ends (a
/// SIGKILL too), so the lock of a dead process never blocks; the file itself stays (removing
/// a lock file another process has open would let two syncs lock two different files).
///
/// The holder writes its process id and command line into the file, so that a sync that has
/// to wait can say who it waits for. The file is opened close-on-exec: a program the reader
/// starts does not inherit the lock.
public final class SyncLock: @unchecked Sendable {
    private var descriptor: Int32
    /// False when the file system refused to lock (some network file systems): the sync goes
    /// on unlocked.
    public let isHeld: Bool

    private init(descriptor: Int32, isHeld: Bool) {
        self.descriptor = descriptor
        self.isHeld = isHeld
    }

    deinit { release() }

    /// The lock file of a remote.
    public static func url(for locations: RemoteLocations) -> URL {
        locations.library.appendingPathComponent(".bibread-sync.lock")
    }

    /// Takes the lock of `locations`' remote. When another process holds it: with `wait`,
    /// calls `waiting` (again whenever the holder changes) and tries again every 50 ms until
    /// it is free or `isCancelled` says stop (``SyncLockError/stoppedWaiting(remote:)``);
    /// without, throws ``SyncLockError/busy(remote:holder:)`` at once. `failedToLock` hears
    /// why a file system that cannot lock was not locked (the sync then goes on).
    public static func acquire(_ locations: RemoteLocations, wait: Bool, waiting: (SyncLockHolder) -> Void,
                               failedToLock: (String) -> Void = { _ in }, isCancelled: () -> Bool) throws -> SyncLock {
        try FileManager.default.createDirectory(at: locations.library, withIntermediateDirectories: true)
        let path = url(for: locations).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw RemoteError.fetchFailed(path: path, reason: "cannot open the sync lock: \(String(cString: strerror(errno)))")
        }
        var announced: SyncLockHolder?
        while let failure = Self.lockFailure(descriptor) {
            guard failure.code == EWOULDBLOCK else {
                failedToLock("cannot lock \(path) (\(failure.reason)); syncing without the lock")
                return SyncLock(descriptor: descriptor, isHeld: false)
            }
            let holder = Self.holder(reading: descriptor)
            guard wait else {
                close(descriptor)
                throw SyncLockError.busy(remote: locations.name, holder: holder)
            }
            if holder != announced {
                announced = holder
                waiting(holder)
            }
            guard !isCancelled() else {
                close(descriptor)
                throw SyncLockError.stoppedWaiting(remote: locations.name)
            }
            usleep(50_000)
        }
        Self.writeHolder(to: descriptor)
        return SyncLock(descriptor: descriptor, isHeld: true)
    }

    /// Takes the lock on `descriptor` if it is free: nil, or why not (EWOULDBLOCK: another
    /// process holds it).
    private static func lockFailure(_ descriptor: Int32) -> SystemCallError? {
        do throws(SystemCallError) {
            try SystemCall.retrying("flock") { flock(descriptor, LOCK_EX | LOCK_NB) }
            return nil
        } catch {
            return error
        }
    }

    /// Lets go of the lock (closing the file releases it).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Writes this process's id and command line into the lock file (only its holder writes).
    private static func writeHolder(to descriptor: Int32) {
        let text = "\(getpid())\n\(commandLine())\n"
        _ = ftruncate(descriptor, 0)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// This process's command line for the lock file: the program's name and its arguments,
    /// any `user:password@` removed, at most 200 characters.
    static func commandLine(_ arguments: [String] = CommandLine.arguments) -> String {
        guard let program = arguments.first else { return "bibread" }
        let words = [(program as NSString).lastPathComponent] + arguments.dropFirst().map(URLText.withoutCredentials)
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    /// Who holds the lock, as the lock file says. The process id counts only while that process
    /// runs: the file may still name an earlier holder, now gone, before the new one wrote.
    static func holder(reading descriptor: Int32) -> SyncLockHolder {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return SyncLockHolder(pid: nil, command: nil) }
        let lines = String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pid = Int32(lines[0]), pid > 0, kill(pid, 0) == 0 || errno != ESRCH else { return SyncLockHolder(pid: nil, command: nil) }
        let command = lines.count > 1 ? TerminalText.cleanedLine(String(lines[1].prefix { $0 != "\n" })) : ""
        return SyncLockHolder(pid: pid, command: command.isEmpty ? nil : command)
    }
}
