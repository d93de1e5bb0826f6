import Foundation
import PDFText
import Testing
import BibreadTestSupport

@Suite("errors opening PDFs")
struct OpeningErrorTests {
    static let samples = ["tex-tour.pdf", "shortest-paths.pdf", "incompleteness.pdf", "line-breaking.pdf", "information-theory.pdf"]

    /// The first half of a PDF: poppler cannot rebuild it (these PDFs keep their objects in
    /// streams that the cut loses), and says the document is damaged.
    @Test(arguments: samples)
    func aTruncatedPDFCannotBeOpened(_ name: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let truncated = folder.appendingPathComponent("truncated.pdf")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: samplePDF(name)))
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        #expect(Self.cannotOpenReason(truncated.path)?.contains("damaged") == true)
    }

    @Test func garbageAndEmptyFilesCannotBeOpened() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("garbage.pdf")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: garbage)
        #expect(Self.cannotOpenReason(garbage.path) != nil)
        let text = folder.appendingPathComponent("hello.pdf")
        try Data("hello".utf8).write(to: text)
        #expect(Self.cannotOpenReason(text.path) != nil)
        let empty = folder.appendingPathComponent("empty.pdf")
        try Data().write(to: empty)
        #expect(Self.cannotOpenReason(empty.path) != nil)
        // A PDF header and nothing else.
        let header = folder.appendingPathComponent("header.pdf")
        try Data("%PDF-1.7\n%\u{e2}\u{e3}\n1 0 obj\n<<".utf8).write(to: header)
        #expect(Self.cannotOpenReason(header.path) != nil)
    }

    @Test func aMissingFileCannotBeOpened() {
        #expect(Self.cannotOpenReason("/nonexistent/file.pdf")?.isEmpty == false)
    }

    @Test func encryptedPDFsNeedTheirPassword() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let encrypted = folder.appendingPathComponent("encrypted.pdf").path
        try Tools.run("qpdf", ["--encrypt", "user", "owner", "256", "--", samplePDF("tex-tour.pdf"), encrypted],
                      allowedStatuses: [3])
        #expect(throws: PDFError.encrypted(path: encrypted)) { try PDFDocument(path: encrypted) }
        #expect(throws: PDFError.encrypted(path: encrypted)) { try PDFDocument(path: encrypted, password: "") }
        #expect(throws: PDFError.wrongPassword(path: encrypted)) { try PDFDocument(path: encrypted, password: "wrong") }
        let document = try PDFDocument(path: encrypted, password: "user")
        #expect(document.pageCount == 5)
        #expect(try document.text(ofPage: 3).contains("Origins"))
        #expect(try PDFDocument(path: encrypted, password: "owner").pageCount == 5)
    }

    @Test func errorsNameTheFile() {
        #expect(PDFError.wrongPassword(path: "/x/paper.pdf").description.contains("/x/paper.pdf"))
        #expect(PDFError.encrypted(path: "/x/paper.pdf").description.contains("password"))
        #expect(PDFError.cannotOpen(path: "/x/paper.pdf", reason: "PDF document is damaged").description
            == "/x/paper.pdf: cannot open PDF: PDF document is damaged")
    }

    /// Poppler's reason when opening `path` fails with `.cannotOpen`; nil (and a recorded issue)
    /// when it opens or fails otherwise.
    static func cannotOpenReason(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            let document = try PDFDocument(path: path)
            Issue.record("\(path) opened with \(document.pageCount) pages", sourceLocation: sourceLocation)
        } catch PDFError.cannotOpen(let errorPath, let reason) {
            #expect(errorPath == path, sourceLocation: sourceLocation)
            return reason
        } catch {
            Issue.record("\(path): \(error), not cannotOpen", sourceLocation: sourceLocation)
        }
        return nil
    }
}
