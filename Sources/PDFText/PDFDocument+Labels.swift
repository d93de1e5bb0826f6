import CPoppler

extension PDFDocument {
    /// The label of every page, in order: the document's page label (such as "iv" or "A-3"), or
    /// the page number as text where the document gives none.
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

    /// The page (1-based) that `label` names: the first page with exactly that label; else, for a
    /// roman numeral, the first page whose label is the same numeral in any case ("IV", "iv");
    /// else, for a plain number that is no page's label, the page with that number. Nil when
    /// none of these is found.
    public func page(forLabel label: String) -> Int? {
        let wanted = label.trimmingCharacters(in: .whitespaces)
        guard !wanted.isEmpty else { return nil }
        let labels = pageLabels
        if let index = labels.firstIndex(of: wanted) { return index + 1 }
        if Self.isRomanNumeral(wanted) {
            let folded = wanted.lowercased()
            if let index = labels.firstIndex(where: { Self.isRomanNumeral($0) && $0.lowercased() == folded }) {
                return index + 1
            }
        }
        if wanted.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(wanted), number >= 1, number <= pageCount {
            return number
        }
        return nil
    }

    /// Whether `text` is made only of the letters of roman numerals (i, v, x, l, c, d, m).
    static func isRomanNumeral(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { "ivxlcdmIVXLCDM".contains($0) }
    }
}
