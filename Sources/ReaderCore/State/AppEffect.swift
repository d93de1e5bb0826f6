/// What the event loop does itself, between two screens.
public enum AppEffect: Sendable, Equatable {
    /// Write the session (library, group, selection, sort) to the state file.
    case saveSession
    /// Read the library's files again (a sync changed them).
    case reloadLibrary
    /// Opens a reference's text in `$EDITOR` (the terminal is the editor's meanwhile).
    case editInEditor(EntryText)
    case redrawAll
    case quit
}
