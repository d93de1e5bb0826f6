import BibModel
import Foundation

/// What a sync reports as it goes.
public enum SyncEvent: Sendable, Equatable {
    /// A .bib file: replaced by a newer copy, already current, or refused (and kept aside).
    case library(file: String, outcome: LibraryOutcome)
    /// What the PDFs step will do.
    case planned(files: Int, bytes: Int64, alreadyCurrent: Int)
    case fileStarted(path: String, bytes: Int64?)
    case progress(SyncProgress)
    case fileFinished(path: String, bytes: Int64)
    case fileFailed(path: String, reason: String, retrying: Bool)
    /// Something the user should know that does not stop the sync.
    case notice(String)
    /// Another sync of `remote` holds its lock: this one waits until it ends (sent again when
    /// another process takes the lock first).
    case waiting(remote: String, holder: SyncLockHolder)
    case finished(SyncSummary)
}
