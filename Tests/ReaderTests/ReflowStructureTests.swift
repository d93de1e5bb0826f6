import Foundation
@testable import PDFText
import Reader
import ReaderCore
import Testing
import BibreadTestSupport

/// Reflow keeps the lines that are lines, measured on real manuals against `pdftotext -layout`.
///
/// The rule, over a sample of pages of each corpus PDF: take the page's printed lines (poppler's
/// lines, joined where they share a baseline) that `pdftotext -layout` prints as one line too
/// (whitespace aside). Of these,
/// - every line in a monospace font (code: at least 90% of its characters in a typewriter font
///   by the font's name),
/// - every line that ends in a dot leader and a page number,
/// - every heading on one line (all bold, or a font 15% larger than the page's body text, with
///   no heading line of the same size right before or after it)
/// must be exactly one line of the reflowed text (unwrapped: `ReadingText.lines` at a width no
/// line reaches): not joined to another line, not split. Before the reflow used the fonts, the
/// rates were 33–65% for code, 0–4% for leader lines, 53–72% for headings. And paragraphs are
/// still paragraphs: most lines of prose in the body font are joined to others.
@Suite("reflow keeps the structure of real pages")
struct ReflowStructureTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        var name: String
        var pages: [Int]
        var testDescription: String { name }
    }

    static let samples: [Sample] = [
        Sample(name: "R-intro.pdf", pages: Array(stride(from: 1, through: 113, by: 2))),
        Sample(name: "R-exts.pdf", pages: Array(stride(from: 1, through: 236, by: 4))),
        Sample(name: "biblatex.pdf", pages: Array(stride(from: 1, through: 357, by: 7))),
        Sample(name: "tcolorbox.pdf", pages: Array(1...12) + Array(stride(from: 13, through: 546, by: 11))),
    ]

    /// How many lines of a kind there were, and how many stayed one line.
    struct Tally: CustomStringConvertible {
        var kept = 0
        var total = 0
        var misses: [String] = []
        var rate: Double { total == 0 ? 1 : Double(kept) / Double(total) }
        var description: String { "\(kept)/\(total) (\(String(format: "%.1f", rate * 100))%)" }

        mutating func count(_ line: String, keptWhole: Bool, page: Int) {
            total += 1
            if keptWhole { kept += 1 } else if misses.count < 5 { misses.append("p. \(page): \(line)") }
        }
    }

    @Test(arguments: samples)
    func linesThatAreLinesStayLines(_ sample: Sample) throws {
        let path = Fixtures.corpus("pdfs/\(sample.name)").path
        let document = try PDFDocument(path: path)
        var code = Tally(), leaders = Tally(), headings = Tally(), prose = Tally()
        for page in sample.pages where page <= document.pageCount {
            let layout = try Self.pdftotextLayout(path, page: page)
            let printed = Set(layout.split(separator: "\n").map { Self.normalized(String($0)) })
            let reflowed = Set(ReadingText.lines(of: try document.text(ofPage: page, mode: .reflow), width: 100_000).map(Self.normalized))
            let lines = try document.glyphs(ofPage: page, withFonts: true).textLines
            let body = PageGlyphs.bodyFontSize(of: lines)
            for (index, line) in lines.enumerated() {
                let text = Self.normalized(line.text)
                guard text.count >= 2, printed.contains(where: { $0 == text }) else { continue }
                let keptWhole = reflowed.contains(text)
                if line.isMonospace { code.count(text, keptWhole: keptWhole, page: page) }
                if line.endsInLeader { leaders.count(text, keptWhole: keptWhole, page: page) }
                if !line.isMonospace, !line.endsInLeader, !line.isHeading(bodyFontSize: body), line.fontSize == body,
                   line.widestGap < PageGlyphs.tabularGap * line.height, line.listItemTextStart == nil {
                    prose.count(text, keptWhole: !keptWhole, page: page)
                }
                let neighbours = [index - 1, index + 1].filter(lines.indices.contains).map { lines[$0] }
                if line.isHeading(bodyFontSize: body),
                   !neighbours.contains(where: { $0.isHeading(bodyFontSize: body) && abs($0.fontSize - line.fontSize) < 0.5 }) {
                    headings.count(text, keptWhole: keptWhole, page: page)
                }
            }
        }
        let report = "\(sample.name): code lines kept \(code), leader lines \(leaders), headings \(headings); "
            + "prose lines joined to others \(prose)"
        print(report)
        #expect(code.total + leaders.total + headings.total > 0, "no lines measured: \(report)")
        #expect(code.rate >= 0.97, "\(report); code lines joined or split: \(code.misses)")
        #expect(leaders.rate >= 0.97, "\(report); leader lines joined or split: \(leaders.misses)")
        #expect(headings.rate >= 0.97, "\(report); headings not alone: \(headings.misses)")
        // Paragraphs are still reflowed: most prose lines go on with the next or the one before.
        #expect(prose.rate >= 0.6, "\(report); prose lines left alone: \(prose.misses)")
    }

    /// `pdftotext -layout` of one page.
    static func pdftotextLayout(_ path: String, page: Int) throws -> String {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["pdftotext", "-layout", "-f", "\(page)", "-l", "\(page)", path, "-"])
        try #require(result.status == 0, "pdftotext failed: \(result.standardError)")
        return result.standardOutput
    }

    /// Whitespace runs collapsed to one space, ends trimmed, ligatures expanded.
    static func normalized(_ text: String) -> String {
        ReadingText.paragraphs(of: text).joined(separator: " ")
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
