/// What an `update` did.
public struct IndexSummary: Sendable, Equatable {
    /// Documents whose pages were extracted and stored.
    public var read = 0
    /// Files whose content was indexed already (a copy, a move, a touched file): only mapped to it.
    public var mapped = 0
    /// Files skipped because their size and modification time are unchanged (remembered failures included).
    public var unchanged = 0
    /// Paths forgotten because no library links them any more or they are gone from disk.
    public var removed = 0
    /// Documents deleted from the index because no path maps to them any more.
    public var documentsDeleted = 0
    /// Pages stored.
    public var pages = 0
    /// Files that could not be read in this update (path → reason): encrypted, damaged, not a PDF.
    /// They are remembered by size and modification time and not tried again until they change.
    public var failed: [String: String] = [:]
    /// Wall time of the update in seconds.
    public var seconds = 0.0
    /// Whether `isCancelled` stopped the update before every document was read.
    public var cancelled = false

    /// An empty summary.
    public init() {}
}
