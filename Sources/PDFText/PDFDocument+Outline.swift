import CPoppler

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
