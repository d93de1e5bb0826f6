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
