import BibreadTestSupport
import Foundation
@testable import FullText
import PDFText
import Testing

@Suite("cancelling an update")
struct CancellationTests {
    @Test(arguments: [1, 2, 4])
    func cancellingLeavesWholeDocumentsAndTheNextUpdateFinishes(workers: Int) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        var paths = try samplePDFs.enumerated().map { try workspace.copy($1, as: "paper\($0).pdf") }
        paths.append(try workspace.copy(corpusPDF("R-intro.pdf"), as: "r-intro.pdf"))
        var stored = 0
        let summary = try workspace.index.update(paths: paths, workers: workers,
                                                 progress: { stored = $0.done }, isCancelled: { stored >= 2 })
        #expect(summary.cancelled && summary.read == 2)

        // Every stored document has all its pages with text, and nothing else is stored.
        let documents = try workspace.index.storedDocuments()
        #expect(documents.count == 2)
        for document in documents {
            let path = try #require(paths.first { (try? PDFFingerprint.of(path: $0)) == document.fingerprint })
            let pdf = try PDFDocument(path: path)
            let withText = try (1...pdf.pageCount).filter { try !pdf.text(ofPage: $0).allSatisfy(\.isWhitespace) }.count
            #expect(document.pageCount == pdf.pageCount && document.storedPages == withText, "\(path)")
        }
        try workspace.index.checkIntegrity()

        let next = try workspace.index.update(paths: paths, workers: workers)
        #expect(!next.cancelled && next.read == paths.count - 2 && next.unchanged == 2)
        #expect(try workspace.index.statistics() == (paths.count, 27 + 113))
    }

    @Test func aLongPDFIsLeftInTheMiddleWhenCancelled() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let path = try workspace.copy(corpusPDF("tcolorbox.pdf"), as: "long.pdf") // 546 pages
        let started = Date()
        let summary = try workspace.index.update(paths: [path], workers: 2,
                                                 isCancelled: { Date().timeIntervalSince(started) > 0.3 })
        #expect(summary.cancelled && summary.read == 0 && summary.pages == 0)
        // Reading it all takes seconds; stopping takes the pages in hand (at most 8 a thread).
        #expect(summary.seconds < TestTiming.seconds(2.5))
        #expect(try workspace.index.statistics() == (0, 0))
        #expect(try !workspace.index.isIndexed(path: path))
        try workspace.index.checkIntegrity()
    }

    @Test func cancellingWhilePlanningWritesNothing() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let paths = try (0..<70).map { try workspace.copy(samplePDF("tex-tour.pdf"), as: "copy\($0).pdf") }
        let summary = try workspace.index.update(paths: paths, isCancelled: { true })
        #expect(summary.cancelled && summary.read == 0)
        #expect(try workspace.index.statistics() == (0, 0))
    }
}
