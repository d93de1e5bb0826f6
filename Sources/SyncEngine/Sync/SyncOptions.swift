import BibModel
import Foundation

/// How a sync runs.
public struct SyncOptions: Sendable {
    public var selection = SyncSelection()
    public var dryRun = false
    /// Downloads at once.
    public var parallel = 4
    /// Tries per file for transient failures (timeouts, 5xx, dropped connections).
    public var attempts = 3
    /// The first pause before a retry; it doubles each time.
    public var backoff = 0.5
    /// False when PDFs must not be fetched now (a metered connection); the .bib still syncs.
    public var fetchPDFs = true
    /// A transfer that moves less than a byte a second for this long is abandoned (and retried).
    public var stallTimeout = 30.0
    /// The longest wait a busy server's `Retry-After` may ask for before a listing is tried
    /// again; a server that asks for longer is not waited out (the listing fails).
    public var longestRetryWait = 60.0
    /// When another sync of the remote is running: wait for it to end (true), or throw
    /// ``SyncLockError/busy(remote:holder:)`` at once.
    public var waitForOtherSync = true
    /// Put in place a .bib that would drop more than a few of the copy in use's references
    /// (``Syncer/tolerableLoss``), or one whose copy here holds changes made outside bibread
    /// that could not be pushed (the copy is kept in `.previous/`); it must still be complete
    /// and read as BibTeX.
    public var acceptFewerReferences = false
    /// Checks a downloaded PDF whose length neither the listing nor the server gave: nil when
    /// it opens, else why not. SyncEngine does not read PDFs; the caller passes poppler's check
    /// (`PDFDocument.openingProblem`). Without it, such a PDF is only checked for its `%%EOF`.
    public var documentCheck: (@Sendable (String) -> String?)?
    /// The most bytes the remote's PDF cache may hold: a sync that succeeded removes the least
    /// recently read PDFs it did not select until the cache fits (nil: no limit).
    public var cacheLimit: Int64?
    /// Shares the reading state through the remote (`ReadingStateExchange`, which SyncEngine
    /// does not know), run while the sync holds the remote's lock, after the .bib files: returns
    /// what to tell the user; throws when the state could not be shared (said as a notice: the
    /// library synced all the same).
    public var readingState: (@Sendable (any UploadingTransport) throws -> [String])?

    public init() {}
}
