import BibModel
import ReaderCore

/// What the loop's own effects reach outside the state: the session file, the apps of the
/// "open with" menu, the library's files. `AppLoopEffects` in the app; tests record them.
protocol LoopEffects: AnyObject {
    /// Writes the session (library, group, selection, sort); what went wrong, for the status line.
    func saveSession(of state: AppState) -> StatusMessage?
    /// Does what the "open with" menu, reading aloud or the clipboard asks; an event to apply at
    /// once (a pager that ended badly), else nil (results come later through the mailbox).
    func perform(_ effect: HandlerEffect) -> Event?
    /// Reads the library's files again (a sync changed them), with work for it; nil: nothing to read.
    func reloadLibrary() -> (library: Library, work: BackgroundWork)?
    /// Opens a reference's text in `$EDITOR` (`$VISUAL`, then `$EDITOR`, then `vi`) and says
    /// what the user saved (`entryTextEdited`).
    func editInEditor(_ text: EntryText) -> Event
}
