import BibModel

/// Transfers from the library's remote: a download and a sync are jobs of their own, each
/// stopped by its own cancel.
public enum SyncEffect: Sendable, Equatable {
    /// Download a linked file that only the library's remote has.
    case fetchFile(path: String)
    /// Stop the download under way (it resumes next time from its `.part`).
    /// Stop the download under way (it resumes next time from its `.part`).
    case cancelFetch
    /// Sync the library's remote in the background: the .bib, and the PDFs of `group` (nil:
    /// none, since `shownGroup`, the group on screen, is a built-in one).
    case syncLibrary(group: GroupID?, shownGroup: GroupID)
    /// Stop the sync under way.
    case cancelSync
    /// Sync the library's remote on the reader's own (on opening it, every `sync_every`): as
    /// `syncLibrary`, its message saying so.
    case syncInBackground(group: GroupID?, shownGroup: GroupID)
    /// The reader quits while a sync runs: stop it and wait a moment for it to end; with
    /// `detach`, then start `bibread sync` in a session of its own to finish it (with the PDFs
    /// of `group`).
    case endSyncForQuit(detach: Bool, group: GroupID?)
}
