import CPoppler
import Foundation

extension PDFDocument {
    /// The longest page label kept, in characters (a longer one is cut).
    public static let maxLabelLength = 64

    /// The label of every page, in order: the document's page label (such as "iv" or "A-3"), or
    /// the page number as text where the document gives none. Labels are shown and printed, so
    /// they come without control characters or white space around them, at most
    /// `maxLabelLength` characters. Which page a typed or cited label names is decided by one
    /// rule, `DocumentInfo.resolve` in the reader.
    public var pageLabels: [String] {
        withLabelCache { cache in
            if let cache { return cache }
            let labels = (1...pageCount).map(labelLocked(ofPage:))
            cache = labels
            return labels
        }
    }

    /// The labels of pages 1 through `last` (at most `pageCount` of them), as `pageLabels` gives
    /// them: poppler reads its page tree only that far.
    public func pageLabels(through last: Int) -> [String] {
        withLabelCache { cache in
            let last = min(last, pageCount)
            guard last >= 1 else { return [] }
            if let cache { return Array(cache.prefix(last)) }
            return (1...last).map(labelLocked(ofPage:))
        }
    }

    /// The 1-based number of a page that poppler's reading of the page labels prints with
    /// `label`, or nil. Poppler reads its page tree only up to that page; the page found is not
    /// always the first with that label, nor always one whose label (in `pageLabels`) is `label`
    /// exactly (poppler reads roman numerals without regard to case, for one): the caller checks
    /// (`DocumentInfo.firstPage`).
    public func pageNumber(labelled label: String) -> Int? {
        withDocument { document in
            let index = cpoppler_document_page_index_by_label(document, label)
            return index >= 0 && Int(index) < pageCount ? Int(index) + 1 : nil
        }
    }

    /// The label of page `number` as `pageLabels` gives it, with the lock held.
    private func labelLocked(ofPage number: Int) -> String {
        let label = rawLabelLocked(ofPage: number).map(Self.cleanedLabel)
        return label.flatMap { $0.isEmpty ? nil : $0 } ?? String(number)
    }

    /// Poppler's label of page `number` as it gives it, before `cleanedLabel`; nil when the page
    /// cannot be loaded or has no label. With the lock held.
    func rawLabelLocked(ofPage number: Int) -> String? {
        // try? flattens: nil when the page cannot be loaded or has no label.
        try? withPageLocked(number) { page -> String? in
            guard let label = cpoppler_page_label(page) else { return nil }
            defer { cpoppler_free(label) }
            return String(cString: label)
        }
    }

    /// `label` without control characters or white space around it, cut to `maxLabelLength`.
    static func cleanedLabel(_ label: String) -> String {
        cleanedASCIILabel(label) ?? cleanedLabelByScalars(label)
    }

    /// `cleanedLabel` of an ASCII label, byte by byte (a document's labels are read for every
    /// page up to the one asked for, and Foundation's trimming was most of their cost); nil when
    /// `label` is not ASCII. In ASCII the control characters are the bytes below 0x20 and 0x7F
    /// (tab among them), so the white space left to trim is the space, and each character is
    /// one byte (CR LF, the one ASCII pair that is one character, is gone with the controls).
    static func cleanedASCIILabel(_ label: String) -> String? {
        var label = label
        return label.withUTF8 { bytes -> String? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            let kept = bytes.filter { $0 >= 0x20 && $0 != 0x7F }
            guard let first = kept.firstIndex(where: { $0 != 0x20 }), let last = kept.lastIndex(where: { $0 != 0x20 }) else {
                return ""
            }
            return String(decoding: kept[first...min(last, first + maxLabelLength - 1)], as: UTF8.self)
        }
    }

    /// `cleanedLabel` scalar by scalar, for any label (the straightforward path, which tests
    /// compare `cleanedASCIILabel` with).
    static func cleanedLabelByScalars(_ label: String) -> String {
        let scalars = label.unicodeScalars.filter { $0.properties.generalCategory != .control }
        let cleaned = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
        return String(cleaned.prefix(maxLabelLength))
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
