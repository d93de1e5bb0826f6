import BibModel

/// The reader's edits under way: those shown and not yet written, and what to do once they
/// are (read the library again, quit).
struct EditingState: Sendable {
    /// An edit shown at once and being written: the entry before it, to put back should the
    /// write fail (nil once the library was read again: positions are no longer the same).
    struct InFlight: Sendable {
        let id: Int
        let address: EntryAddress
        var position: Int?
        var before: Entry?
        let changes: [FieldChange]
    }

    var inFlight: [InFlight] = []
    var nextID = 1
    /// Whose conventions each library file follows (worked out on the first edit).
    var conventions: [String: LibraryConventions]?
    /// Read the library again once the edits are written (another program changed a file).
    var reloadWhenWritten = false
    /// Quit once the edits are written (`q` while one was being written).
    var quitWhenWritten = false
    /// The question asked before `u`: the file and what its last edit was.
    var undoPath: String?

    /// The open conflicts of a synced library, and the positions of their references.
    var conflicts: [EntryConflict] = []
    var conflictPositions: Set<Int> = []

    var isWriting: Bool { !inFlight.isEmpty }
}
