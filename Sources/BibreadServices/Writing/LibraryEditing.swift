import BibModel
import Foundation
import SyncEngine

/// Edits a library file the one way every command and the reader do: in the file's own
/// conventions (`LibraryEditor`), written by `LibraryFileWriter` (the edit applied to the file
/// as it is at that moment, checked by `EditCheck` before it replaces the file), and, for a
/// synced library, recorded in its remote's journal for the next sync to push.
public struct LibraryEditing: Sendable {
    let writer: LibraryFileWriter
    let environment: [String: String]
    let clock: @Sendable () -> Date

    public init(writer: LibraryFileWriter = LibraryFileWriter(),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.writer = writer
        self.environment = environment
        self.clock = clock
    }

    /// Applies `edits` to the reference at `address` in the library file at `path`; `command`
    /// names the edit in the file's history (`bibread undo` shows it). With `dryRun`, nothing
    /// is written: the result says what would change.
    public func apply(_ edits: [EntryEdit], to address: EntryAddress, in path: String, command: String,
                      dryRun: Bool = false) throws -> LibraryEditOutcome {
        let date = clock()
        let (bytes, stamp) = try LoadedFileStamp.read(path)
        if dryRun {
            return LibraryEditOutcome(before: bytes, result: try Self.edit(bytes, path: path, edits: edits, address: address, date: date),
                                      write: nil)
        }
        var result: EditResult?
        var parsed: BibFile?
        let write = try writer.write(path: path, loaded: stamp, command: command, transform: { current in
            // Read once, for the edit and for the check (a library takes its files' entries).
            var macros = MacroTable()
            let file = BibFile.parse(bytes: current, path: path, macros: &macros)
            let edited = try LibraryEditor(library: Library(files: [file]), path: path, fileBytes: current).apply(edits, to: address, at: date)
            (result, parsed) = (edited, file)
            return edited.bytes
        }, check: { old, _ in
            guard let result else { return }
            try EditCheck.verify(original: old, parsedOriginal: parsed, result: result, path: path)
        }, written: { _ in
            // Recorded under the file's lock: a push (which takes it too) sees both or neither.
            if let result { try journal(result, path: path, at: date) }
        })
        guard let result else { throw EditError(.checkFailed, "\(path): the edit gave no result") }
        return LibraryEditOutcome(before: write.externalChange == nil ? bytes : nil, result: result, write: write)
    }

    /// The edit of one file's bytes.
    private static func edit(_ bytes: [UInt8], path: String, edits: [EntryEdit], address: EntryAddress,
                             date: Date) throws -> EditResult {
        let library = Library.parse([(path: path, bytes: bytes)])
        return try LibraryEditor(library: library, path: path, fileBytes: bytes).apply(edits, to: address, at: date)
    }

    /// Records a synced library's edit in its remote's journal (the next sync pushes it).
    private func journal(_ result: EditResult, path: String, at date: Date) throws {
        guard let (locations, file) = RemoteLocations.owningFile(path, environment: environment) else { return }
        let changes = result.changes.map { FieldDifference(field: $0.name.lowercased(), before: $0.oldValue, after: $0.newValue) }
        try EditJournal(url: locations.journal).record(file: file, address: result.address,
                                                       changes: changes, at: date.timeIntervalSince1970)
    }
}

/// What an edit did: the edit engine's result, and the write (nil for a dry run).
public struct LibraryEditOutcome: Sendable {
    /// The file's bytes the edit was made on, when they are the ones read first (nil when
    /// another program's version was edited instead).
    public let before: [UInt8]?
    public let result: EditResult
    public let write: LibraryWrite?
}
