import PropertyList

/// Caps that keep decoding hostile input cheap: every reader and the tree walk check them.
public struct ReadingListLimits: Sendable, Equatable {
    /// The largest input accepted, in bytes (also the largest length a link may declare).
    public var maxBytes = 16 << 20
    /// The deepest folder nesting accepted (the root's children are at depth 1).
    public var maxDepth = 64
    /// The most nodes (folders, bookmarks and notemarks) a list may have.
    public var maxNodes = 100_000
    /// The highest page number accepted.
    public var maxPage = 1_000_000
    /// The most pages one bookmark may span (`LastPage - Page + 1`).
    public var maxPageSpan = 10_000
    /// The most plist values a reader visits; a value reached through several references
    /// counts each time, so that a binary plist's shared references cannot multiply the work.
    public var maxValues = 2_000_000

    /// The default limits.
    public init() {}

    /// How deep raw values may nest in a reader, before the tree walk sees them: enough for
    /// `maxDepth` folders (a folder is a dictionary in a `Children` array) plus a bookmark.
    var maxValueDepth: Int {
        let (product, overflow) = max(maxDepth, 0).multipliedReportingOverflow(by: 4)
        return overflow ? Int.max - 8 : product + 8
    }

    /// The limits the property-list readers (and the JSON reader) work within.
    var propertyListLimits: PropertyListLimits {
        PropertyListLimits(maxDepth: maxValueDepth, maxValues: maxValues, maxBytes: maxBytes)
    }
}
