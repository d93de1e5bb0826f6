import BibModel
import BibreadValues
import BibreadTestSupport
import Foundation
import PDFText
import Testing
@testable import Reader
@testable import ReaderCore

/// The reading view's search of a document on every core (`DocumentSearch`, issue 31) finds the
/// page that the search one page after another finds: on the corpora's manuals, for words on
/// many pages, on one, on none, forwards and backwards, in both modes; and, for the order of
/// the steps alone, on made-up sets of matching steps, many times over (a race shows rarely).
@Suite("searching a document on every core")
struct ParallelDocumentSearchTests {
    /// `find` with `threads` threads, on `pdf` opened as the reader opens it.
    static func finder(_ pdf: URL, threads: Int) -> BackgroundWork {
        let work = BackgroundWork(library: Library(files: []), groups: [], fullTextURL: nil)
        work.searchThreads = threads
        work.perform(.openDocument(path: pdf.path, password: nil)) { _ in }
        return work
    }

    @Test(arguments: ["pdfs/R-intro.pdf", "pdfs/R-exts.pdf"])
    func everyCoreFindsThePageThatOnePageAfterAnotherFinds(_ name: String) throws {
        let pdf = Fixtures.corpus(name)
        let pageCount = try PDFDocument(path: pdf.path).pageCount
        let oneByOne = Self.finder(pdf, threads: 1)
        let parallel = [2, 3].map { Self.finder(pdf, threads: $0) }
        // Common, rare, absent; accents and case ignored; a phrase cut by a line's end.
        let queries = ["the", "Regression", "temporary", "zzqxj-absent", "data frame"]
        let starts = [1, pageCount / 3, pageCount]
        for query in queries {
            for start in starts {
                for forward in [true, false] {
                    for mode in [ReadingMode.reflow, .layout] {
                        let expected = oneByOne.find(query, in: pdf.path, after: start, forward: forward, mode: mode, width: 80)
                        for work in parallel {
                            let found = work.find(query, in: pdf.path, after: start, forward: forward, mode: mode, width: 80)
                            #expect(found?.page == expected?.page && found?.wrapped == expected?.wrapped,
                                    "\(name) '\(query)' from \(start) forward \(forward) \(mode): \(String(describing: found)) vs \(String(describing: expected))")
                        }
                    }
                }
            }
        }
    }

    @Test func aDocumentThatNoLongerOpensIsSearchedOnOneThread() throws {
        let folder = try Fixtures.temporaryDirectory()
        let copy = folder.appendingPathComponent("copy.pdf")
        try FileManager.default.copyItem(at: Fixtures.corpus("pdfs/R-intro.pdf"), to: copy)
        let oneByOne = Self.finder(copy, threads: 1)
        let parallel = Self.finder(copy, threads: 2)
        try FileManager.default.removeItem(at: copy)
        let expected = oneByOne.find("regression", in: copy.path, after: 1, forward: true, mode: .reflow, width: 80)
        #expect(expected != nil)
        #expect(parallel.find("regression", in: copy.path, after: 1, forward: true, mode: .reflow, width: 80)?.page == expected?.page)
    }

    @Test func theFirstMatchingStepIsFoundWhateverTheThreads() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<400 {
            let steps = Int.random(in: 0...60, using: &generator)
            let matching = Set((0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: 1...max(1, steps), using: &generator) })
            let expected = steps == 0 ? nil : (1...steps).first { matching.contains($0) }
            for workers in [1, 2, 3, 8] {
                let lock = NSLock()
                nonisolated(unsafe) var tried: [Int] = []
                let found = DocumentSearch.firstMatch(steps: steps, workers: workers) { step, worker in
                    #expect(worker >= 0 && worker < max(1, workers))
                    lock.withLock { tried.append(step) }
                    // Uneven work, so that the threads overtake each other.
                    if step % 3 == round % 3 { usleep(50) }
                    return matching.contains(step)
                }
                #expect(found == expected, "round \(round): \(steps) steps, matching \(matching.sorted()), \(workers) workers")
                let all = lock.withLock { tried }
                // Each step tried once at most; every step before the match tried.
                #expect(Set(all).count == all.count)
                let before = Set(1..<(expected ?? steps + 1))
                #expect(before.isSubset(of: Set(all)), "round \(round): not tried: \(before.subtracting(all).sorted())")
            }
        }
    }

    @Test func theStepsGoRoundTheDocumentFromThePageShown() {
        #expect((1...5).map { DocumentSearch.page(atStep: $0, from: 2, forward: true, pageCount: 5) } == [3, 4, 5, 1, 2])
        #expect((1...5).map { DocumentSearch.page(atStep: $0, from: 2, forward: false, pageCount: 5) } == [1, 5, 4, 3, 2])
        #expect(DocumentSearch.page(atStep: 1, from: 1, forward: true, pageCount: 1) == 1)
    }
}
