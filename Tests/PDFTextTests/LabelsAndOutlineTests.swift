import Foundation
import PDFText
import Testing
import BibreadTestSupport

@Suite("page labels, outline and title")
struct LabelsAndOutlineTests {
    @Test func texTourHasRomanThenArabicLabels() throws {
        let document = try PDFDocument(path: samplePDF("tex-tour.pdf"))
        #expect(document.pageLabels == ["i", "ii", "1", "2", "3"])
        #expect(document.pageLabel(ofPage: 1) == "i")
        #expect(document.pageLabel(ofPage: 2) == "ii")
        #expect(document.pageLabel(ofPage: 3) == "1")
        #expect(document.pageLabel(ofPage: 5) == "3")
        #expect(document.pageLabel(ofPage: 0) == nil)
        #expect(document.pageLabel(ofPage: 6) == nil)
    }

    @Test func aDocumentWithoutLabelsHasPageNumbers() throws {
        let document = try PDFDocument(path: samplePDF("shortest-paths.pdf"))
        #expect(document.pageLabels == ["1", "2", "3", "4"])
        #expect((1...4).allSatisfy { document.pageLabel(ofPage: $0) == nil })
    }

    @Test func labelsAreCleanedOfControlCharactersAndKeptShort() throws {
        // A label is shown on the status line and printed by `read` and `open --print`: an
        // escape sequence in a PDF must not reach the terminal.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("hostile.pdf")
        try LabelledPDF.write(pageCount: 3, ranges: [.init(firstPage: 1, prefix: "\u{1B}]0;owned\u{07}A-"),
                                                     .init(firstPage: 3, style: nil, prefix: String(repeating: "x", count: 500))], to: pdf)
        let document = try PDFDocument(path: pdf.path)
        let labels = document.pageLabels
        #expect(labels.allSatisfy { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }, "\(labels)")
        #expect(labels[0].hasSuffix("]0;ownedA-1") && labels[1].hasSuffix("]0;ownedA-2"))
        #expect(labels[2] == String(repeating: "x", count: PDFDocument.maxLabelLength))
    }

    @Test func corpusLabelsMixPrefixesRomanAndArabic() throws {
        // R-intro.pdf: a title page labelled T-1, T-2, the contents i-iv, then the text from 1.
        let document = try PDFDocument(path: corpusPDF("R-intro.pdf"))
        #expect(Array(document.pageLabels.prefix(8)) == ["T-1", "T-2", "i", "ii", "iii", "iv", "1", "2"])
        #expect(document.pageLabels.count == document.pageCount)
    }

    @Test func texTourOutlineIsFlattenedDepthFirst() throws {
        let document = try PDFDocument(path: samplePDF("tex-tour.pdf"))
        #expect(document.outline == [
            OutlineItem(title: "1 Origins", level: 0, page: 3),
            OutlineItem(title: "1.1 A book that looked wrong", level: 1, page: 3),
            OutlineItem(title: "1.2 TeX78 and TeX82", level: 1, page: 3),
            OutlineItem(title: "2 How TeX reads its input", level: 0, page: 3),
            OutlineItem(title: "2.1 Characters and category codes", level: 1, page: 3),
            OutlineItem(title: "2.2 Macros and expansion", level: 1, page: 4),
            OutlineItem(title: "3 Boxes and glue", level: 0, page: 4),
            OutlineItem(title: "3.1 Horizontal and vertical lists", level: 1, page: 4),
            OutlineItem(title: "3.2 Paragraphs and pages", level: 1, page: 4),
            OutlineItem(title: "4 Mathematics", level: 0, page: 5),
            OutlineItem(title: "5 Fonts and output", level: 0, page: 5),
            OutlineItem(title: "5.1 METAFONT and Computer Modern", level: 1, page: 5),
            OutlineItem(title: "5.2 DVI and its successors", level: 1, page: 5),
            OutlineItem(title: "6 Legacy", level: 0, page: 5),
        ])
    }

    /// R-intro.pdf's outline (pdfTeX, hyperref) leads to named destinations.
    @Test func namedDestinationsAreResolved() throws {
        let document = try PDFDocument(path: corpusPDF("R-intro.pdf"))
        let outline = document.outline
        #expect(Array(outline.prefix(4)) == [
            OutlineItem(title: "Preface", level: 0, page: 7),
            OutlineItem(title: "1 Introduction and preliminaries", level: 0, page: 8),
            OutlineItem(title: "The R environment", level: 1, page: 8),
            OutlineItem(title: "Related software and documentation", level: 1, page: 8),
        ])
        #expect(outline.count > 50)
        #expect(outline.allSatisfy { $0.page != nil }, "unresolved: \(outline.filter { $0.page == nil }.map(\.title))")
        // Depth-first: a level is at most one deeper than the entry before it.
        #expect(zip(outline, outline.dropFirst()).allSatisfy { $1.level <= $0.level + 1 })
        // The chapters' pages go up.
        let chapters = outline.filter { $0.level == 0 }.compactMap(\.page)
        #expect(chapters == chapters.sorted())
        // And the pages are right: chapter 1 starts where its title is.
        #expect(try document.text(ofPage: 8).contains("Introduction and preliminaries"))
    }

    @Test func aDocumentWithoutOutlineHasAnEmptyOne() throws {
        #expect(try PDFDocument(path: samplePDF("shortest-paths.pdf")).outline.isEmpty)
    }

    @Test func titleComesFromTheDocumentInformation() throws {
        #expect(try PDFDocument(path: samplePDF("tex-tour.pdf")).title == "A Short Tour of the TeX Typesetting System")
        #expect(try PDFDocument(path: corpusPDF("biblatex.pdf")).title == "The biblatex Package")
        #expect(try PDFDocument(path: corpusPDF("R-intro.pdf")).title == nil)
    }
}
