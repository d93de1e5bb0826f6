import BibModel

extension AppState {
    /// Applies `edits` to the selected reference (or the one read), shows the change at once and
    /// returns the effect that writes it; `command` names the edit in the file's history.
    // stub: replaced by the keys branch
    mutating func requestEdit(_ edits: [EntryEdit], command: String) -> [Effect] {
        []
    }
}
