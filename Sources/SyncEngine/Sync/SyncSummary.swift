import BibModel
import Foundation

/// How a sync ended.
public struct SyncSummary: Sendable, Equatable {
    public var downloaded = 0
    public var downloadedBytes: Int64 = 0
    public var current = 0
    public var failed: [String] = []
    /// Why each file of `failed` failed, by path.
    public var failureReasons: [String: String] = [:]
    public var missing: [String] = []
    public var problems: [String] = []
    /// The remote paths of the PDFs the selection chose (kept when the cache is trimmed).
    public var selected: [String] = []
    public var cancelled = false
    public var seconds = 0.0
    /// The bytes the cache manifest records once the PDFs were downloaded; nil when the sync
    /// did not open it (no PDFs wanted, a dry run).
    public var recordedBytes: Int64?
    /// True when PDFs were wanted but no .bib of the remote is on this machine (the first
    /// one fetched was set aside): nothing could be chosen.
    public var libraryMissing = false
    /// What the selection names that the library does not have (a group, a field), one
    /// message each: nothing was chosen for them.
    public var unknownNames: [String] = []
    /// The .bib files whose download was refused (or, in a dry run, would be): the copy in use
    /// stays.
    public var rejectedLibraries: [String] = []
    /// True for a dry run: nothing was downloaded or changed on this machine.
    public var dryRun = false
    /// In a dry run, the PDFs a sync would download and their bytes (as far as the remote says).
    public var wouldDownload = 0
    public var wouldDownloadBytes: Int64 = 0

    /// True when the sync stopped before choosing any PDF because what it was asked for cannot
    /// be chosen: a name the library does not have, or no .bib of the remote here.
    public var stoppedBeforeChoosing: Bool { libraryMissing || !unknownNames.isEmpty }

    public var succeeded: Bool {
        failed.isEmpty && !cancelled && !libraryMissing && unknownNames.isEmpty && rejectedLibraries.isEmpty
    }
}
