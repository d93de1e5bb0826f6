import BibModel
import BibreadTestSupport
import Foundation
import FullText
import PDFText
import Testing
@testable import Reader
@testable import ReaderCore

/// The reading view's search in a document the full-text index holds (issue 31) reads only the
/// pages whose indexed text may hold the query (`SearchSkeleton`), and finds exactly the page
/// the search of every page finds: on the corpora's manuals against a straightforward search
/// (every page's shown lines, in order), for words, parts of words, phrases cut by a line's
/// end, hyphenated words, case and absent words, from many pages both ways; a file changed
/// since it was indexed is searched in the PDF; and on hostile text, a skeleton never rules out
/// a page whose lines match.
@Suite("searching a document with the full-text index")
struct IndexedDocumentSearchTests {
    static let width = 80

    /// A small deterministic generator (the same queries every run).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11 ^ state << 7
        }
    }

    /// An index of `pdf` in a folder of its own, and a `BackgroundWork` that searches with it.
    static func indexedFinder(_ pdf: URL) throws -> BackgroundWork {
        let folder = try Fixtures.temporaryDirectory()
        let url = folder.appendingPathComponent("fulltext.sqlite")
        _ = try FullTextIndex(url: url).update(paths: [pdf.path])
        let work = BackgroundWork(library: Library(files: []), groups: [], fullTextURL: url)
        work.perform(.openDocument(path: pdf.path, password: nil)) { _ in }
        return work
    }

    /// A piece of at most `longest` characters of a random line joined with the next one, as a
    /// search reads them (a phrase cut by the line's end); nil for an empty line.
    static func randomPiece(of lines: [String], longest: Int, generator: inout Generator) -> String? {
        let index = Int.random(in: 0..<lines.count, using: &generator)
        let joined = index + 1 < lines.count && !lines[index + 1].isEmpty ? lines[index] + " " + lines[index + 1] : lines[index]
        let characters = Array(joined)
        guard !characters.isEmpty else { return nil }
        let start = Int.random(in: 0..<characters.count, using: &generator)
        let length = Int.random(in: 1...min(longest, characters.count - start), using: &generator)
        return String(characters[start..<(start + length)])
    }

    /// Queries that occur on the pages (words, their parts, phrases across lines, other case)
    /// and some that occur nowhere.
    static func queries(from pages: [[String]], count: Int, generator: inout Generator) -> [String] {
        var queries = ["zzqxj-absent", "regression", "Data Frame", "e.g", "-", "x", "fi", "ﬁ", "naïve", "straße"]
        while queries.count < count {
            let lines = pages[Int.random(in: 0..<pages.count, using: &generator)]
            guard !lines.isEmpty else { continue }
            guard let piece = randomPiece(of: lines, longest: 24, generator: &generator) else { continue }
            var query = piece.trimmingCharacters(in: .whitespaces)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: query = query.uppercased()
            case 1: query = query.lowercased()
            default: break
            }
            if !query.isEmpty { queries.append(query) }
        }
        return queries
    }

    @Test(arguments: ["pdfs/R-intro.pdf", "pdfs/R-exts.pdf", "pdfs/biblatex.pdf", "pdfs/tcolorbox.pdf"])
    func theIndexFindsThePageThatEveryPageFinds(_ name: String) throws {
        let pdf = Fixtures.corpus(name)
        let document = try PDFDocument(path: pdf.path)
        let pageCount = document.pageCount
        // The straightforward search: every page's shown lines, tried in the search's order.
        let shown = (1...pageCount).map { page in
            ((try? document.reflowText(ofPage: page)).map { ReadingText.shownLines(of: $0, mode: .reflow, width: Self.width) }) ?? []
        }
        func expected(_ query: String, from start: Int, forward: Bool) -> (page: Int, wrapped: Bool)? {
            guard let step = (1...pageCount).first(where: { step in
                let page = DocumentSearch.page(atStep: step, from: start, forward: forward, pageCount: pageCount)
                return !ReadingText.occurrences(of: query, in: shown[page - 1]).isEmpty
            }) else { return nil }
            let page = DocumentSearch.page(atStep: step, from: start, forward: forward, pageCount: pageCount)
            return (page, forward ? page <= start : page >= start)
        }
        let work = try Self.indexedFinder(pdf)
        var generator = Generator(state: UInt64(name.utf8.count) * 7919)
        var narrowed = 0
        let queries = Self.queries(from: shown, count: 100, generator: &generator)
        for query in queries {
            let start = Int.random(in: 1...pageCount, using: &generator)
            for forward in [true, false] {
                let want = expected(query, from: start, forward: forward)
                let found = work.find(query, in: pdf.path, after: start, forward: forward, mode: .reflow, width: Self.width)
                #expect(found?.page == want?.page && found?.wrapped == want?.wrapped,
                        "\(name) '\(query)' from \(start) forward \(forward): \(String(describing: found)) vs \(String(describing: want))")
            }
            if work.searchSteps(for: query, in: pdf.path, pageCount: pageCount, from: start, forward: true, mode: .reflow).count < pageCount {
                narrowed += 1
            }
        }
        // The index was used: most queries read fewer pages than the document has.
        #expect(narrowed * 2 > queries.count, "\(narrowed) of \(queries.count) queries narrowed")
    }

    @Test func aFileChangedSinceItWasIndexedIsSearchedInThePDF() throws {
        let folder = try Fixtures.temporaryDirectory()
        let copy = folder.appendingPathComponent("copy.pdf")
        try FileManager.default.copyItem(at: Fixtures.corpus("pdfs/R-intro.pdf"), to: copy)
        let url = folder.appendingPathComponent("fulltext.sqlite")
        _ = try FullTextIndex(url: url).update(paths: [copy.path])
        let pageCount = try PDFDocument(path: copy.path).pageCount
        #expect(try FullTextIndex(url: url).storedPages(ofFileAt: copy.path, pageCount: pageCount)?.count == pageCount)
        #expect(try FullTextIndex(url: url).storedPages(ofFileAt: copy.path, pageCount: pageCount + 1) == nil)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: copy.path)
        #expect(try FullTextIndex(url: url).storedPages(ofFileAt: copy.path, pageCount: pageCount) == nil)
        let work = BackgroundWork(library: Library(files: []), groups: [], fullTextURL: url)
        work.perform(.openDocument(path: copy.path, password: nil)) { _ in }
        #expect(work.searchSteps(for: "regression", in: copy.path, pageCount: pageCount, from: 1, forward: true, mode: .reflow).count == pageCount)
        #expect(work.find("regression", in: copy.path, after: 1, forward: true, mode: .reflow, width: Self.width) != nil)
    }

    @Test func queriesTheSkeletonCannotTellReadEveryPage() {
        #expect(SearchSkeleton.pieces(of: "naïve") == nil)
        #expect(SearchSkeleton.pieces(of: "- . ,") == nil)
        #expect(SearchSkeleton.pieces(of: "") == nil)
        #expect(SearchSkeleton.pieces(of: "Data-Frame x2") == [Array("data".utf8), Array("frame".utf8), Array("x2".utf8)])
    }

    /// Hostile text: accents composed and not, case folding that changes length, ligatures,
    /// hyphens of every kind at line ends, control characters, wide characters, long words.
    @Test func aSkeletonNeverRulesOutAPageWhoseLinesMatch() {
        let pieces = ["straße", "STRASSE", "K", "\u{212A}elvin", "e\u{301}te\u{301}", "été", "ﬁnd", "ﬂow", "oﬀer", "œuvre", "æsir",
                      "İstanbul", "ŉ", "ǅ", "ﬀ", "Ⅻ", "ｆｕｌｌ", "dyna-\nmic", "state-of-the-\nart", "Hilbert-\nSchmidt", "soft\u{00AD}\nhyphen",
                      "hy\u{2010}\nphen", "tab\tbed", "bell\u{07}", "form\u{0C}feed", "\n\n", "\n", " ", "  code   spaced", "ascii",
                      "Preface . . . . . . . . 12", String(repeating: "w", count: 130), "naïve", "ǈ", "ß", "ﬅ", "İ", "ı", "ĳ"]
        var generator = Generator(state: 42)
        var checked = 0
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            var folder = SearchSkeleton.Folder()
            let skeleton = SearchSkeleton.of(text, folder: &folder)
            let width = Int.random(in: 4...40, using: &generator)
            let lines = ReadingText.shownLines(of: text, mode: .reflow, width: width)
            guard !lines.isEmpty else { continue }
            guard let piece = Self.randomPiece(of: lines, longest: 10, generator: &generator) else { continue }
            // The query as an ASCII keyboard types it: each character folded, what is left outside ASCII dropped.
            for query in [piece, piece.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), piece.uppercased()] {
                let ascii = String(String.UnicodeScalarView(query.unicodeScalars.filter(\.isASCII)))
                guard let queryPieces = SearchSkeleton.pieces(of: ascii),
                      !ReadingText.occurrences(of: ascii, in: lines).isEmpty else { continue }
                checked += 1
                #expect(SearchSkeleton.mayMatch(skeleton, pieces: queryPieces), "'\(ascii)' matches \(lines) but not skeleton \(String(decoding: skeleton, as: UTF8.self))")
            }
        }
        #expect(checked > 1000)
    }
}
