import Foundation
@testable import PDFText
import Testing
import BibreadTestSupport

/// `PDFDocument.cleanedLabel`'s byte-level path for ASCII labels (issue 31: `read --page 2000`
/// reads the labels of 2,000 pages) against the straightforward one, scalar by scalar.
@Suite("page labels: the ASCII path against the scalar path")
struct LabelCleaningTests {
    @Test(arguments: corpusPDFNames)
    func everyCorpusLabelIsCleanedAlike(name: String) throws {
        let document = try PDFDocument(path: corpusPDF(name))
        let raw = document.withDocument { _ in (1...document.pageCount).map { document.rawLabelLocked(ofPage: $0) } }
        #expect(raw.compactMap { $0 }.count > 0, "\(name) has no labels to compare")
        for label in raw.compactMap({ $0 }) {
            #expect(PDFDocument.cleanedLabel(label) == PDFDocument.cleanedLabelByScalars(label), "\(label.debugDescription)")
        }
        // And the labels as shown: cleaned by the scalar path, the page number where none.
        let expected = raw.enumerated().map { page, label in
            label.map(PDFDocument.cleanedLabelByScalars).flatMap { $0.isEmpty ? nil : $0 } ?? String(page + 1)
        }
        #expect(document.pageLabels == expected)
        #expect(document.pageLabels(through: 100) == Array(expected.prefix(100)))
    }

    @Test func samplePDFLabelsAreCleanedAlike() throws {
        let papers = Fixtures.samples.appendingPathComponent("papers")
        let names = try FileManager.default.contentsOfDirectory(atPath: papers.path).filter { $0.hasSuffix(".pdf") }
        #expect(!names.isEmpty)
        for name in names {
            guard let document = try? PDFDocument(path: papers.appendingPathComponent(name).path) else { continue }
            let raw = document.withDocument { _ in (1...document.pageCount).compactMap { document.rawLabelLocked(ofPage: $0) } }
            for label in raw {
                #expect(PDFDocument.cleanedLabel(label) == PDFDocument.cleanedLabelByScalars(label), "\(name): \(label.debugDescription)")
            }
        }
    }

    @Test func hostileLabelsAreCleanedAlike() {
        // Controls (tab, CR, LF, CR LF, ESC, DEL, NUL), spaces around and inside, labels longer
        // than the limit, and non-ASCII text that takes the scalar path (C1 controls, U+200B,
        // no-break and ideographic spaces, combining marks after a cut).
        let pieces: [String] = ["a", "Z", "7", "-", " ", "  ", "\t", "\r", "\n", "\r\n", "\u{1B}", "\u{7F}", "\u{00}",
                                "\u{1F}", "x", "iv", "A-", "\u{85}", "\u{9B}", "\u{200B}", "\u{A0}", "\u{3000}",
                                "e\u{301}", "é", "🙂", String(repeating: "y", count: 70)]
        var generator = SeededGenerator(seed: 31)
        var labels = ["", " ", "\t", "\r\n", String(repeating: " ", count: 80), String(repeating: "a", count: 64),
                      String(repeating: "a", count: 65), " " + String(repeating: "b", count: 63) + "c ",
                      String(repeating: "q", count: 63) + "\r\n" + "r"]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 12)
            labels.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        for label in labels {
            #expect(PDFDocument.cleanedLabel(label) == PDFDocument.cleanedLabelByScalars(label), "\(label.debugDescription)")
        }
        // The ASCII path answers for ASCII only.
        #expect(PDFDocument.cleanedASCIILabel("é") == nil)
        #expect(PDFDocument.cleanedASCIILabel(" \u{1B}[2J12 ") == "[2J12")
    }
}
