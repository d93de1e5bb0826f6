/// What the reader knows about an open document.
public struct DocumentInfo: Sendable, Equatable {
    public let pageCount: Int
    public let title: String?
    /// One label per page (`xii`, `12`); the page number where the document has none.
    public let labels: [String]
    public let outline: [OutlineEntry]
    /// The labels and the outline are still being read (`labels` and `outline` are empty until
    /// `withDetails` fills them in): a long PDF's first page is shown before them.
    public let detailsPending: Bool

    public init(pageCount: Int, title: String?, labels: [String], outline: [OutlineEntry], detailsPending: Bool = false) {
        self.pageCount = pageCount
        self.title = title
        self.labels = labels
        self.outline = outline
        self.detailsPending = detailsPending
    }

    /// The same document with its labels and outline, read after it was opened.
    public func withDetails(labels: [String], outline: [OutlineEntry]) -> DocumentInfo {
        DocumentInfo(pageCount: pageCount, title: title, labels: labels, outline: outline)
    }

    /// The label of a page when it differs from its number (`xii` for page 12).
    public func distinctLabel(ofPage page: Int) -> String? {
        guard page >= 1, page <= labels.count else { return nil }
        let label = labels[page - 1]
        return label == String(page) || label.isEmpty ? nil : label
    }

    /// The printed label of a page: its label, else its number.
    public func label(ofPage page: Int) -> String {
        distinctLabel(ofPage: page) ?? String(page)
    }

    /// The outline entry of the section that holds `page`: the one whose page is the greatest
    /// not after `page`, the last such in outline order on a tie, whatever order the outline's
    /// pages come in; nil when every entry starts later (or points nowhere).
    public func outlineIndex(holding page: Int) -> Int? {
        var best: (index: Int, page: Int)?
        for (index, entry) in outline.enumerated() {
            guard let start = entry.page, start <= page else { continue }
            if best == nil || start >= best?.page ?? Int.min { best = (index, start) }
        }
        return best?.index
    }
}
