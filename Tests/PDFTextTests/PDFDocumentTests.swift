import Foundation
import PDFText
import Testing
import BibreadTestSupport

@Suite("poppler-glib through CPoppler")
struct PDFDocumentTests {
    private var sample: String { Fixtures.samples.appendingPathComponent("papers/line-breaking.pdf").path }

    @Test func opensASamplePDFAndReadsItsText() throws {
        let document = try PDFDocument(path: sample)
        #expect(document.pageCount == 4)
        let text = try document.text(ofPage: 1)
        #expect(text.contains("Breaking Paragraphs into Lines"))
    }

    @Test func pageOutOfRangeIsAnError() throws {
        let document = try PDFDocument(path: sample)
        #expect(throws: PDFError.pageOutOfRange(page: 5, count: 4)) { try document.text(ofPage: 5) }
    }

    @Test func missingAndCorruptFilesAreClearErrors() throws {
        #expect(throws: PDFError.self) { try PDFDocument(path: "/nonexistent/file.pdf") }
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corrupt = folder.appendingPathComponent("corrupt.pdf")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sample))
        try bytes.prefix(bytes.count / 3).write(to: corrupt)
        #expect(throws: PDFError.cannotOpen(path: corrupt.path, reason: "PDF document is damaged")) {
            try PDFDocument(path: corrupt.path)
        }
        let notPDF = folder.appendingPathComponent("text.pdf")
        try Data("hello".utf8).write(to: notPDF)
        #expect(throws: PDFError.self) { try PDFDocument(path: notPDF.path) }
    }
}
