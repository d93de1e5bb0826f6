import Checksums
import DiskIO
import Foundation

/// Writes a library file the one safe way, for every command and the reader: the caller gives
/// a transformation of the file's bytes (an edit) and a check of its result (a re-parse), and
/// the writer
///
/// 1. takes the file's lock (`$XDG_STATE_HOME/bibread/locks/`), so that writers of one file go
///    one at a time, across processes (a second waits; a dead one holds nothing);
/// 2. reads the file as it is now and compares it with what the caller loaded
///    (``LoadedFileStamp``): when someone else wrote it meanwhile (BibDesk, JabRef, an editor, a
///    sync client), the transformation is applied to the bytes found, not to those loaded, and
///    the result says so (``LibraryWrite/externalChange``);
/// 3. writes the new version to a temporary file beside the file, with the file's permissions
///    and (where the system allows) its owner, flushes it, reads it back and has the caller
///    check it;
/// 4. keeps the version before the edit under `$XDG_STATE_HOME/bibread/history/` (bounded), so
///    that ``undo(path:waiting:)`` can put it back;
/// 5. renames the new version over the file and flushes the folder: a reader, or a crash, sees
///    the old version or the new, never a part.
///
/// A library given through a symbolic link is written through it: the link's target gets the
/// new version and the link stays. The lock and the history belong to the target, so two
/// links to one file share them. (A file with several hard links is detached from the others
/// by the rename, as every editor that saves safely does.)
public struct LibraryFileWriter: Sendable {
    /// How much history is kept per library file.
    public struct Limits: Sendable, Equatable {
        /// The most edits kept (each with the version before it).
        public var versions: Int
        /// The most bytes the kept versions may take; the newest is kept whatever its size.
        public var bytes: Int64

        public init(versions: Int = 10, bytes: Int64 = 256 << 20) {
            self.versions = versions
            self.bytes = bytes
        }
    }

    /// bibread's state folder (`$XDG_STATE_HOME/bibread`).
    public let state: URL
    public let limits: Limits

    /// A writer keeping its locks and history under `state` (by default the XDG state folder).
    public init(state: URL = Directories().state, limits: Limits = Limits()) {
        self.state = state
        self.limits = limits
    }

    /// Applies `transform` to the library file at `path` and writes the result in its place.
    ///
    /// - Parameters:
    ///   - loaded: the stamp of the bytes the edit was made on (``LoadedFileStamp``).
    ///   - command: what makes the edit, for the history and `bibread undo` (`mark read knuth1984`).
    ///   - waiting: called with the holder's process id (nil when unknown) when another writer
    ///     holds the file, before waiting for it.
    ///   - transform: the file's bytes as they are now → the new bytes. Giving back the same
    ///     bytes writes nothing.
    ///   - check: the bytes before and the new bytes as read back from the temporary file; what
    ///     it throws stops the write (the file is as it was).
    ///   - written: called with the write once the new version is in place, while the lock is
    ///     still held (a synced library's journal records the edit there, so that a sync's push,
    ///     which takes the same lock, sees the file and the journal agree). What it throws is
    ///     thrown; the file stays written.
    /// - Throws: what `transform` or `check` throws, as it is; else ``LibraryWriteError``.
    @discardableResult
    public func write(path: String, loaded: LoadedFileStamp, command: String, waiting: (Int32?) -> Void = { _ in },
                      transform: ([UInt8]) throws -> [UInt8],
                      check: (_ old: [UInt8], _ new: [UInt8]) throws -> Void,
                      written: (LibraryWrite) throws -> Void = { _ in }) throws -> LibraryWrite {
        let target = try Self.resolved(path)
        let lock = try lock(target, waiting: waiting)
        defer { lock.release() }
        let found = try LoadedFileStamp.readWithStatus(target)
        let foundStamp = LoadedFileStamp(bytes: found.bytes, status: found.status)
        let external = foundStamp.contentHash == loaded.contentHash ? nil : (loaded: loaded, found: foundStamp)
        let new = try transform(found.bytes)
        guard new != found.bytes else {
            return LibraryWrite(path: target, externalChange: external, wrote: false, bytes: found.bytes, stamp: foundStamp)
        }
        let history = history(of: target)
        let kept = WriteHistory.settled(history.entries(), currentHash: foundStamp.contentHash)
        let entry = WriteHistoryEntry(command: command, date: Date().timeIntervalSince1970, before: foundStamp.contentHash,
                                      beforeSize: foundStamp.size, after: SHA256.hex(of: new), afterSize: Int64(new.count))
        var recorded = false
        do {
            try replace(target, with: new, status: found.status) { written in
                try check(found.bytes, written)
                try history.record(entry, before: found.bytes, after: kept)
                recorded = true
            }
        } catch {
            // The rename failed after the edit was recorded: the next look would settle the
            // edit away, but a history that can be put right now is.
            if recorded { try? history.removeLast(entry) }
            throw error
        }
        let write = LibraryWrite(path: target, externalChange: external, wrote: true, bytes: new, stamp: try Self.stamp(target, hash: entry.after))
        try written(write)
        return write
    }

    /// Puts back the version of the library file at `path` before bibread's last edit of it,
    /// only when the file is still what that edit wrote; the edit before it can be undone next.
    ///
    /// - Throws: ``LibraryWriteError/nothingToUndo(path:)``,
    ///   ``LibraryWriteError/changedSinceEdit(path:edit:now:)`` (someone else wrote the file
    ///   since: it is left as it is), or another ``LibraryWriteError``.
    @discardableResult
    public func undo(path: String, waiting: (Int32?) -> Void = { _ in }) throws -> LibraryUndo {
        let target = try Self.resolved(path)
        let lock = try lock(target, waiting: waiting)
        defer { lock.release() }
        let found = try LoadedFileStamp.readWithStatus(target)
        let foundStamp = LoadedFileStamp(bytes: found.bytes, status: found.status)
        let history = history(of: target)
        var entries = WriteHistory.settled(history.entries(), currentHash: foundStamp.contentHash)
        guard let edit = entries.popLast() else { throw LibraryWriteError.nothingToUndo(path: target) }
        guard edit.after == foundStamp.contentHash else {
            throw LibraryWriteError.changedSinceEdit(path: target, edit: edit, now: foundStamp)
        }
        let before = try history.keptCopy(before: edit)
        try replace(target, with: before, status: found.status) { _ in }
        // Were this cut short, the entry would be settled away on the next look: the file is
        // its `before` now.
        try? history.replace(with: entries)
        return LibraryUndo(path: target, edit: edit, remaining: entries.count, bytes: before, stamp: try Self.stamp(target, hash: edit.before))
    }

    /// The edits of the library file at `path` that can be undone, oldest first.
    public func history(path: String) throws -> [WriteHistoryEntry] {
        let target = try Self.resolved(path)
        return history(of: target).entries()
    }

    // MARK: - Places

    /// The name of a file's lock and history folder: the SHA-256 of its resolved path.
    static func key(_ target: String) -> String {
        SHA256.hex(of: Array(target.utf8))
    }

    func lockURL(_ target: String) -> URL {
        LibraryWriteLock.url(forFile: target, state: state)
    }

    /// Takes the lock of the library file `target` (the one a sync's push takes too).
    private func lock(_ target: String, waiting: (Int32?) -> Void) throws(LibraryWriteError) -> LibraryWriteLock {
        do {
            return try LibraryWriteLock.acquire(lockURL(target), for: target, waiting: waiting)
        } catch {
            throw .lockFailed(path: target, reason: error.reason)
        }
    }

    /// The history of the library file `target`.
    func history(of target: String) -> WriteHistory {
        WriteHistory(folder: state.appendingPathComponent("history").appendingPathComponent(Self.key(target)), path: target, limits: limits)
    }

    /// `path` made absolute with every link resolved: the file a write replaces.
    static func resolved(_ path: String) throws(LibraryWriteError) -> String {
        guard let resolved = realpath(path, nil) else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: - Writing

    /// Writes `bytes` in place of `target` (whose status was `status`), through a temporary file
    /// beside it that is read back and given to `beforeReplacing`.
    private func replace(_ target: String, with bytes: [UInt8], status: stat, beforeReplacing: ([UInt8]) throws -> Void) throws {
        let url = URL(fileURLWithPath: target)
        do {
            try AtomicFile.write(Data(bytes), to: url, mode: status.st_mode & 0o7777, owner: (status.st_uid, status.st_gid)) { temporary in
                let written = try LoadedFileStamp.readWithStatus(temporary.path).bytes
                guard written == bytes else { throw LibraryWriteError.readBackDiffers(path: target) }
                try beforeReplacing(written)
            }
        } catch let failure as AtomicFile.WriteError {
            if [EACCES, EPERM, EROFS].contains(failure.code) {
                throw LibraryWriteError.folderNotWritable(path: target, folder: url.deletingLastPathComponent().path, reason: failure.reason)
            }
            throw LibraryWriteError.writeFailed(path: target, reason: failure.reason)
        }
    }

    /// The stamp of `target`, just written with bytes whose hash is `hash`.
    private static func stamp(_ target: String, hash: String) throws(LibraryWriteError) -> LoadedFileStamp {
        var status = stat()
        guard stat(target, &status) == 0 else { throw .unreadable(path: target, reason: String(cString: strerror(errno))) }
        return LoadedFileStamp(status: status, contentHash: hash)
    }
}
