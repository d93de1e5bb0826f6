import BibModel

/// Writes of the library's files, one at a time and in the order asked for (the shell runs
/// them on one serial queue): an edit, an undo, and what they need to read first.
public enum EditEffect: Sendable, Equatable {
    /// The background work (groups, counts, the search) sees an edited entry at once.
    case showEdited(EditedEntry)
    /// Writes an edit to its file, after those asked for before; `editSaved` or `editFailed`
    /// says how it went.
    case write(EditRequest)
    /// Says what `u` would undo: bibread's last edit of any of these files (`undoDescribed`).
    case describeUndo(paths: [String])
    /// Puts the file back as it was before bibread's last edit of it (`undoFinished`).
    case undo(path: String)
    /// Reads a reference's text as its file has it now, for `$EDITOR` (`entryTextLoaded`).
    case loadEntryText(EntryAddress, path: String)
    /// Settles a conflicting field (`conflictResolved`).
    case resolveConflict(ConflictChoice)
}
