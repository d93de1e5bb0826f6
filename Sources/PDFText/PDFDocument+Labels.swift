import CPoppler

extension PDFDocument {
    /// The label of every page, in order: the document's page label (such as "iv" or "A-3"), or
    /// the page number as text where the document gives none. Which page a typed or cited
    /// label names is decided by one rule, `DocumentInfo.resolve` in the reader.
    public var pageLabels: [String] {
        withLabelCache { cache in
            if let cache { return cache }
            var labels: [String] = []
            labels.reserveCapacity(pageCount)
            for index in 0..<pageCount {
                let number = index + 1
                // try? flattens: nil when the page cannot be loaded or has no label.
                let label = try? withPageLocked(number) { page -> String? in
                    guard let label = cpoppler_page_label(page) else { return nil }
                    defer { cpoppler_free(label) }
                    return String(cString: label)
                }
                labels.append(label.flatMap { $0.isEmpty ? nil : $0 } ?? String(number))
            }
            cache = labels
            return labels
        }
    }

    /// The label of page `number` (1-based) when it is not just the page number, such as "ii"
    /// for the second page of a preface; nil when the document has no labels, when the page's
    /// label is its own number ("7" on page 7), and for a page out of range.
    public func pageLabel(ofPage number: Int) -> String? {
        guard number >= 1 && number <= pageCount else { return nil }
        let label = pageLabels[number - 1]
        return label == String(number) ? nil : label
    }
}
