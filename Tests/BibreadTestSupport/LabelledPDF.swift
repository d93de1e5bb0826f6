import Foundation

/// Writes small PDFs with page labels (the printed page numbers of `/PageLabels`), such as a
/// journal article whose pages are printed 151–161: one line of Helvetica text per page, so that
/// poppler reads each page's text, and no tool needed (the installed qpdf cannot set labels).
public enum LabelledPDF {
    /// One run of page labels: from page `firstPage` of the file (1-based), numbers in `style`
    /// counted from `start`, after `prefix`.
    public struct Range: Sendable {
        public enum Style: String, Sendable {
            /// 1, 2, 3
            case arabic = "D"
            /// i, ii, iii
            case romanLower = "r"
            /// I, II, III
            case romanUpper = "R"
            /// A, B, … Z, AA
            case lettersUpper = "A"
            /// a, b, … z, aa
            case lettersLower = "a"
        }

        public var firstPage: Int
        public var style: Style?
        public var start: Int
        public var prefix: String

        public init(firstPage: Int, style: Style? = .arabic, start: Int = 1, prefix: String = "") {
            self.firstPage = firstPage
            self.style = style
            self.start = start
            self.prefix = prefix
        }
    }

    /// Writes a PDF of `pageCount` pages labelled by `ranges` to `url`; page `n` (1-based) says
    /// `text(n)`, by default "Page n of the file". `claimedCount`, when given, is written as the
    /// page tree's `/Count` instead of the real count: a page tree that lies (`0`, `-3`, `99`,
    /// `abc`), with a correct cross-reference table.
    public static func write(pageCount: Int, ranges: [Range], to url: URL, claimedCount: String? = nil,
                             text: (Int) -> String = { "Page \($0) of the file" }) throws {
        var objects: [String] = []
        let firstPageObject = 4
        let kids = (0..<pageCount).map { "\(firstPageObject + 2 * $0) 0 R" }.joined(separator: " ")
        let nums = ranges.map { range -> String in
            var dictionary = "<<"
            if let style = range.style { dictionary += " /S /\(style.rawValue)" }
            if range.start != 1 { dictionary += " /St \(range.start)" }
            if !range.prefix.isEmpty { dictionary += " /P (\(range.prefix))" }
            return "\(range.firstPage - 1) \(dictionary) >>"
        }.joined(separator: " ")
        objects.append("<< /Type /Catalog /Pages 2 0 R /PageLabels << /Nums [\(nums)] >> >>")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(claimedCount ?? String(pageCount)) >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for page in 1...pageCount {
            let escaped = text(page).replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "(", with: "\\(").replacingOccurrences(of: ")", with: "\\)")
            let stream = "BT /F1 14 Tf 72 720 Td (\(escaped)) Tj ET"
            let contents = firstPageObject + 2 * (page - 1) + 1
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents \(contents) 0 R >>")
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        var output = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(output.utf8.count)
            output += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = output.utf8.count
        output += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { output += String(format: "%010d 00000 n \n", offset) }
        output += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        try Data(output.utf8).write(to: url)
    }
}
