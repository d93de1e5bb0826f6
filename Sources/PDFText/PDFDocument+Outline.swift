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

extension PDFDocument {
    /// The document's outline flattened depth-first: each entry is followed by its children
    /// (one level deeper), then by its next sibling. Empty when the document has none.
    ///
    /// An entry leads to a page through a "go to" action with an explicit destination or a named
    /// one (looked up in the document's name tree); other actions leave `page` nil.
    public var outline: [OutlineItem] {
        withDocument { document in
            var count: Int32 = 0
            guard let items = cpoppler_document_outline(document, &count) else { return [] }
            defer { cpoppler_outline_free(items, count) }
            return UnsafeBufferPointer(start: items, count: Int(max(0, count))).map { item in
                let page = Int(item.page)
                return OutlineItem(title: item.title.map { String(cString: $0) } ?? "",
                                   level: Int(item.level),
                                   page: page >= 1 && page <= pageCount ? page : nil)
            }
        }
    }
}
