import BibreadTestSupport
import Foundation
import PDFText
import Testing

/// A PDF whose page tree lies about its page count (issue 26, item 13): poppler takes `/Count`
/// on trust. A count it refuses (0, negative, not a number, more than the file's objects)
/// leaves no page it can read: opening says so, instead of "0 pages" and "give a number from 1
/// to 0". A count larger than the pages there are: the missing pages say so, with how many can
/// be read, instead of "page 3 is out of range (the document has 5 pages)".
@Suite("PDFs whose page tree lies about its count")
struct PageTreeCountTests {
    @Test(arguments: ["0", "-3", "99", "abc"])
    func aCountPopplerRefusesLeavesNoPageAndOpeningSaysWhy(_ count: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("lying.pdf")
        try LabelledPDF.write(pageCount: 2, ranges: [], to: pdf, claimedCount: count)
        #expect {
            _ = try PDFDocument(path: pdf.path)
        } throws: { error in
            "\(error)" == "\(pdf.path): no page of this PDF can be read: its page tree is damaged (it gives no valid page count)"
        }
    }

    @Test func aCountLargerThanThePagesSaysWhichPagesThereAre() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("lying.pdf")
        try LabelledPDF.write(pageCount: 2, ranges: [], to: pdf, claimedCount: "5")
        let document = try PDFDocument(path: pdf.path)
        #expect(try document.text(ofPage: 2).contains("Page 2 of the file"))
        for page in 3...5 {
            #expect {
                _ = try document.text(ofPage: page)
            } throws: { error in
                "\(error)" == "page \(page) is not in the PDF: its page tree claims 5 pages, but only pages 1 to 2 can be read"
            }
        }
        #expect(throws: PDFError.pageOutOfRange(page: 6, count: 5)) { try document.text(ofPage: 6) }
    }
}
