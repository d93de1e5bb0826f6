import BibModel
import Foundation
import SyncEngine

/// Settles a conflicting field the way `bibread conflicts resolve` and the reader's `C` do:
/// keeping the library's value (`theirs`) only closes the conflict; keeping this machine's
/// value or another writes it into the library here through `LibraryEditing` (journaled, so the
/// next sync pushes it), then closes it. Every open conflict of that field in the journal is
/// settled by the one choice.
public struct ConflictResolution: Sendable {
    /// Which value to keep.
    public enum Choice: Sendable, Equatable {
        /// The library's value (the other machine's): nothing is written.
        case theirs
        /// This machine's value.
        case mine
        /// Another value (BibTeX, as between braces).
        case value(String)
    }

    private let editing: LibraryEditing

    public init(editing: LibraryEditing = LibraryEditing()) {
        self.editing = editing
    }

    /// The open conflicts of the library file at `path` (its remote's journal for a synced
    /// library, else its own), none when no journal was ever written.
    public static func openConflicts(ofLibraryAt path: String,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [JournalConflict] {
        guard let (journal, file) = try ConflictJournal.existing(forLibraryAt: path, environment: environment) else { return [] }
        return try journal.journal.openConflicts().filter { $0.file == file }
    }

    /// Keeps `choice` for the conflicts `found` (of one field, in `journal`); the line that says
    /// what was done (`…: kept the library's value '5'`).
    ///
    /// - Throws: `EditError` when the value cannot be written (the conflict stays open), or
    ///   what the journal or the writer throws.
    public func resolve(_ found: [JournalConflict], in journal: ConflictJournal, choice: Choice, command: String) throws -> String {
        guard let stored = found.last, let field = stored.conflict.field else { return "nothing to resolve" }
        let conflict = stored.conflict
        let place = "\(journal.place(of: stored.file)): \(conflict.address) \(field)"
        let chosen: String?? = switch choice {
        case .theirs: .none
        case .mine: .some(conflict.mine)
        case .value(let value): .some(value)
        }
        if let chosen {
            let edit: EntryEdit = chosen.map { .setField(field, to: $0) } ?? .removeField(field)
            _ = try editing.apply([edit], to: conflict.address, in: try journal.localPath(of: stored.file), command: command)
        }
        for other in found { try journal.journal.resolve(conflict: other.id, at: Date().timeIntervalSince1970) }
        let pushed = journal.remote == nil ? "" : "; the next sync pushes it"
        switch choice {
        case .theirs: return "\(place): kept the library's value\(conflict.theirs.map { " '\($0)'" } ?? " (none)")"
        case .mine: return "\(place): " + (conflict.mine.map { "set to '\($0)' (yours)" } ?? "removed (yours)") + pushed
        case .value(let value): return "\(place): set to '\(value)'" + pushed
        }
    }
}
