import Dispatch
import Foundation
@testable import PDFText
import Testing
import BibreadTestSupport

@Suite("one PDFDocument from many threads")
struct ConcurrencyTests {
    /// Calls from many threads on one document are serialized and give the serial results.
    @Test func concurrentCallsOnOneDocumentGiveTheSerialResults() throws {
        let document = try PDFDocument(path: samplePDF("incompleteness.pdf"))
        let pages = Array(1...document.pageCount)
        let reading = try pages.map { try document.text(ofPage: $0) }
        let layout = try pages.map { try document.layoutText(ofPage: $0) }
        let labels = document.pageLabels
        let rounds = 8
        let results = Results(count: rounds * pages.count)
        DispatchQueue.concurrentPerform(iterations: rounds) { round in
            for page in pages {
                let mode: PageTextMode = round % 2 == 0 ? .reading : .layout
                results.set(round * pages.count + page - 1, try? document.text(ofPage: page, mode: mode))
                results.setLabels(document.pageLabels)
                _ = document.outline
                _ = document.title
            }
        }
        for round in 0..<rounds {
            let got = (0..<pages.count).map { results.get(round * pages.count + $0) }
            #expect(got == (round % 2 == 0 ? reading : layout), "round \(round)")
        }
        #expect(results.allLabels.allSatisfy { $0 == labels })
        // The results alone do not show a missing lock: poppler 22.12 survives concurrent use of
        // one document. The debug build counts the calls inside the lock.
        #expect(document.mostCallsAtOnce == 1)
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String?]
        private var labels: [[String]] = []
        init(count: Int) { values = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: String?) { lock.withLock { values[index] = value } }
        func get(_ index: Int) -> String? { lock.withLock { values[index] } }
        func setLabels(_ value: [String]) { lock.withLock { labels.append(value) } }
        var allLabels: [[String]] { lock.withLock { labels } }
    }
}
