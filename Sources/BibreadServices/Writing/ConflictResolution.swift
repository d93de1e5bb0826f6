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

    /// The open conflicts of the remote that keeps the library file at `path`, with that file's
    /// path here (none when the file is not a synced library's, or no journal was ever written).
    public static func openConflicts(ofLibraryAt path: String,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [JournalConflict] {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let locations = RemoteLocations.owning(absolute, environment: environment),
              let journal = try locations.existingJournal() else { return [] }
        let root = locations.library.standardizedFileURL.path + "/"
        guard absolute.hasPrefix(root) else { return [] }
        let file = String(absolute.dropFirst(root.count))
        return try journal.openConflicts().filter { $0.file == file }
    }

    /// Keeps `choice` for the conflicts `found` (of one field, in `locations`' journal); the
    /// line that says what was done (`…: kept the library's value '5'`).
    ///
    /// - Throws: `EditError` when the value cannot be written (the conflict stays open), or
    ///   what the journal or the writer throws.
    public func resolve(_ found: [JournalConflict], in locations: RemoteLocations, journal: EditJournal, choice: Choice,
                        command: String) throws -> String {
        guard let stored = found.last, let field = stored.conflict.field else { return "nothing to resolve" }
        let conflict = stored.conflict
        let place = "\(locations.name): \(stored.file): \(conflict.address) \(field)"
        let chosen: String?? = switch choice {
        case .theirs: .none
        case .mine: .some(conflict.mine)
        case .value(let value): .some(value)
        }
        if let chosen {
            let edit: EntryEdit = chosen.map { .setField(field, to: $0) } ?? .removeField(field)
            let path = try RemotePath.local(stored.file, under: locations.library).path
            _ = try editing.apply([edit], to: conflict.address, in: path, command: command)
        }
        for other in found { try journal.resolve(conflict: other.id, at: Date().timeIntervalSince1970) }
        switch choice {
        case .theirs: return "\(place): kept the library's value\(conflict.theirs.map { " '\($0)'" } ?? " (none)")"
        case .mine: return "\(place): set to '\(conflict.mine ?? "")' (yours); the next sync pushes it"
        case .value(let value): return "\(place): set to '\(value)'; the next sync pushes it"
        }
    }
}
