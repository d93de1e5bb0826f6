import Foundation
import PDFText
import Testing
import BibreadTestSupport

@Suite("page text in its physical layout")
struct LayoutTextTests {
    /// shortest-paths.pdf page 1: an abstract across the page, then two columns.
    @Test func twoColumnsStaySideBySide() throws {
        let document = try PDFDocument(path: samplePDF("shortest-paths.pdf"))
        let lines = try document.layoutText(ofPage: 1).components(separatedBy: "\n")
        // Words of the left column, several spaces, then words of the right column.
        for (left, right) in [("1 Introduction", "length of a shortest path"),
                              ("The note that Dijkstra published in 1959 is", "be reached."),
                              ("famously short. It considers n points connected", "d(v) for every node v")] {
            #expect(lines.contains { line in
                guard let l = line.range(of: left), let r = line.range(of: right), l.upperBound < r.lowerBound else { return false }
                return line[l.upperBound..<r.lowerBound].allSatisfy { $0 == " " } && line.distance(from: l.upperBound, to: r.lowerBound) >= 3
            }, "no line has '\(left)' and then '\(right)' side by side")
        }
        // The right column starts at the same column on every line where both columns are.
        let starts = Set(lines.compactMap { line -> Int? in
            guard let range = line.range(of: "be reached.") ?? line.range(of: "d(v) for every node v") else { return nil }
            return line.distance(from: line.startIndex, to: range.lowerBound)
        })
        #expect(starts.count == 1)
    }

    @Test func linesStayInOrder() throws {
        let document = try PDFDocument(path: samplePDF("shortest-paths.pdf"))
        let lines = try document.layoutText(ofPage: 1).components(separatedBy: "\n")
        let order = ["Shortest Paths, Sixty Years On", "Abstract", "Keywords:", "1 Introduction", "famously short",
                     "2 The problem", "Sample document written"].map { phrase in lines.firstIndex { $0.contains(phrase) } }
        #expect(order.allSatisfy { $0 != nil }, "\(order)")
        let found = order.compactMap { $0 }
        #expect(found == found.sorted() && Set(found).count == found.count)
    }

    @Test func layoutKeepsEveryCharacterAndHasNoTrailingSpaces() throws {
        for (path, page) in [(samplePDF("shortest-paths.pdf"), 3), (samplePDF("tex-tour.pdf"), 1), (corpusPDF("R-intro.pdf"), 6)] {
            let document = try PDFDocument(path: path)
            let layout = try document.layoutText(ofPage: page)
            let reading = try document.text(ofPage: page)
            // Reading text drops hyphens that end lines, so compare without any.
            #expect(Self.characterCounts(layout) == Self.characterCounts(reading), "\(path) page \(page)")
            #expect(!layout.components(separatedBy: "\n").contains { $0.hasSuffix(" ") })
            #expect(!layout.hasPrefix("\n") && !layout.hasSuffix("\n"))
        }
    }

    /// A single-column page reads the same in layout as in reading order.
    @Test func singleColumnLayoutReadsAsText() throws {
        let document = try PDFDocument(path: samplePDF("line-breaking.pdf"))
        let layout = normalizedWhitespace(try document.layoutText(ofPage: 2))
        let reading = normalizedWhitespace(try PDFDocument(path: samplePDF("line-breaking.pdf")).text(ofPage: 2))
        #expect(layout.replacingOccurrences(of: "- ", with: "") == reading.replacingOccurrences(of: "- ", with: ""))
    }

    @Test func anImageOnlyPageHasNoText() throws {
        let document = try PDFDocument(path: samplePDF("shortest-paths.pdf"))
        #expect(try document.text(ofPage: 2).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try document.layoutText(ofPage: 2).isEmpty)
        #expect(try document.text(ofPage: 2, mode: .layout).isEmpty)
        #expect(try !document.text(ofPage: 3, mode: .reading).isEmpty)
    }

    static func characterCounts(_ text: String) -> [Character: Int] {
        text.filter { !$0.isWhitespace && $0 != "-" }.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }
}
