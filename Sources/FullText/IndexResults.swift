/// How far an `update` has got, reported after the files are planned and after each document.
public struct IndexProgress: Sendable, Equatable {
    /// Documents read (or found unreadable) so far in this update.
    public let done: Int
    /// Documents this update has to read (new or changed content).
    public let total: Int
    /// Pages stored so far in this update.
    public let pages: Int
    /// The file of the document last finished, or nil before the first.
    public let currentPath: String?

    /// Creates a progress report.
    public init(done: Int, total: Int, pages: Int, currentPath: String?) {
        self.done = done
        self.total = total
        self.pages = pages
        self.currentPath = currentPath
    }
}

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

/// A page that matches a query.
public struct PageHit: Sendable, Equatable {
    /// The content fingerprint of the document (`PDFFingerprint`).
    public let fingerprint: String
    /// The files with this content, sorted.
    public let paths: [String]
    /// The page number (1-based).
    public let page: Int
    /// The page's rank, lower is better (FTS5's convention: a negated score): bm25 for `search`,
    /// bm25 with the query words weighted alike for `hits`. Only ranks of one call compare.
    public let rank: Double
    /// The passage of the page around the match.
    public let snippet: Snippet

    /// Creates a hit.
    public init(fingerprint: String, paths: [String], page: Int, rank: Double, snippet: Snippet) {
        self.fingerprint = fingerprint
        self.paths = paths
        self.page = page
        self.rank = rank
        self.snippet = snippet
    }
}
