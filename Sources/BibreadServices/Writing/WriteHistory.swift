import Checksums
import DiskIO
import Foundation

/// The versions of one library file before bibread's last edits of it, kept so that an edit
/// can be undone: a folder under the state folder (`history/<hash of the file's path>/`, only
/// the user may read it) holding `index.json` (the path and the edits, oldest first) and a copy
/// of the file before each edit, `<its SHA-256>.bib`. Every file in it is written atomically, the
/// copy before the index; a copy no entry names (an index write cut short) goes with the next
/// change. Bounded: at most ``LibraryFileWriter/Limits/versions`` edits, and the oldest go
/// while the copies take more than ``LibraryFileWriter/Limits/bytes`` (the newest always stays).
///
/// Only the holder of the file's ``LibraryWriteLock`` reads or changes it.
struct WriteHistory {
    private struct Index: Codable {
        var path: String
        var entries: [WriteHistoryEntry]
    }

    let folder: URL
    /// The library file (a link's target).
    let path: String
    let limits: LibraryFileWriter.Limits

    private var indexURL: URL { folder.appendingPathComponent("index.json") }

    /// The edits kept, oldest first; none when there is no index or it cannot be read.
    func entries() -> [WriteHistoryEntry] {
        guard let data = FileManager.default.contents(atPath: indexURL.path),
              let index = try? JSONDecoder().decode(Index.self, from: data) else { return [] }
        return index.entries
    }

    /// `entries` without the last ones that never landed: an edit is recorded before its file
    /// takes the library's place, so a writer killed in between leaves an entry whose `after`
    /// the file never was (the file is still its `before`). An undo cut short after its rename
    /// leaves the undone entry the same way.
    static func settled(_ entries: [WriteHistoryEntry], currentHash: String) -> [WriteHistoryEntry] {
        var entries = entries
        while let last = entries.last, last.after != currentHash, last.before == currentHash { entries.removeLast() }
        return entries
    }

    /// Keeps `before` (the file's bytes before `entry`) and adds `entry` after `kept`, dropping
    /// the oldest entries beyond the limits.
    func record(_ entry: WriteHistoryEntry, before: [UInt8], after kept: [WriteHistoryEntry]) throws(LibraryWriteError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let copy = copyURL(entry.before)
            if !FileManager.default.fileExists(atPath: copy.path) {
                try AtomicFile.write(Data(before), to: copy, mode: 0o600)
            }
            try save(bounded(kept + [entry]))
        } catch {
            throw .historyNotKept(path: path, folder: folder.path, reason: Self.reason(error))
        }
    }

    /// Saves `entries` as the history (after an undo took the last one away).
    func replace(with entries: [WriteHistoryEntry]) throws {
        try save(entries)
    }

    /// Takes `entry` away when it is the last (an edit recorded that did not land).
    func removeLast(_ entry: WriteHistoryEntry) throws {
        var entries = entries()
        guard entries.last == entry else { return }
        entries.removeLast()
        try save(entries)
    }

    /// The kept copy of the file before `entry`, checked against its hash.
    func keptCopy(before entry: WriteHistoryEntry) throws(LibraryWriteError) -> [UInt8] {
        let copy = copyURL(entry.before)
        guard let bytes = try? LoadedFileStamp.readWithStatus(copy.path).bytes, SHA256.hex(of: bytes) == entry.before else {
            throw .keptCopyDamaged(path: path, copy: copy.path)
        }
        return bytes
    }

    private func copyURL(_ hash: String) -> URL {
        folder.appendingPathComponent("\(hash).bib")
    }

    /// The newest `limits.versions` entries, fewer while their copies take more than
    /// `limits.bytes` (but always the newest).
    private func bounded(_ entries: [WriteHistoryEntry]) -> [WriteHistoryEntry] {
        var kept = Array(entries.suffix(max(1, limits.versions)))
        func bytes(_ entries: [WriteHistoryEntry]) -> Int64 {
            var sizes: [String: Int64] = [:]
            for entry in entries { sizes[entry.before] = entry.beforeSize }
            return sizes.values.reduce(0, +)
        }
        while kept.count > 1, bytes(kept) > limits.bytes { kept.removeFirst() }
        return kept
    }

    /// Writes the index, then removes the copies it no longer names.
    private func save(_ entries: [WriteHistoryEntry]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write(try encoder.encode(Index(path: path, entries: entries)), to: indexURL, mode: 0o600)
        let named = Set(entries.map { "\($0.before).bib" })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".bib") && !name.hasPrefix(".") && !named.contains(name) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// An error's reason for a message: the system's words for a failed write.
    static func reason(_ error: Error) -> String {
        switch error {
        case let failure as AtomicFile.WriteError: failure.reason
        case let failure as CocoaError: (failure.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
            ?? failure.localizedDescription
        default: String(describing: error)
        }
    }
}
