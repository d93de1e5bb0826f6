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
            var labels: [String] = []
            labels.reserveCapacity(pageCount)
            for index in 0..<pageCount {
                let number = index + 1
                // try? flattens: nil when the page cannot be loaded or has no label.
                let label = try? withPageLocked(number) { page -> String? in
                    guard let label = cpoppler_page_label(page) else { return nil }
                    defer { cpoppler_free(label) }
                    return Self.cleanedLabel(String(cString: label))
                }
                labels.append(label.flatMap { $0.isEmpty ? nil : $0 } ?? String(number))
            }
            cache = labels
            return labels
        }
    }

    /// `label` without control characters or white space around it, cut to `maxLabelLength`.
    static func cleanedLabel(_ label: String) -> String {
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
