import CPoppler

/// One entry of a PDF's outline (its bookmarks or table of contents).
public struct OutlineItem: Sendable, Equatable {
    /// The entry's title.
    public var title: String
    /// How deep the entry is: 0 for a top-level entry, 1 for its children, and so on.
    public var level: Int
    /// The 1-based page the entry leads to, or nil when it leads nowhere in this document (a
    /// link to another file or a web page, or a destination that cannot be resolved).
    public var page: Int?

    /// An entry titled `title` at depth `level` that leads to `page`.
    public init(title: String, level: Int, page: Int?) {
        self.title = title
        self.level = level
        self.page = page
    }
}
