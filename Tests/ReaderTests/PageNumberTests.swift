import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// One rule for page numbers: what a person reads, types or cites is the printed page (its
/// label); `#N` is the Nth page of the file; a number that is no label falls back to the page of
/// the file with that number, and says so.
@Suite("page numbers")
struct PageNumberTests {
    /// R-exts.pdf of the corpora: T-1, T-2, i–v, then 1–229 (236 pages).
    static var manual: URL { Fixtures.corpus("pdfs/R-exts.pdf") }

    /// A harness on a library of one reference, `key`, whose PDF is `pdf`.
    static func harness(key: String, pdf: URL, width: Int = 120) -> ReaderHarness {
        ReaderHarness(library: Fixtures.library("@manual{\(key), title = {Title of \(key)}, file = {:\(pdf.path):PDF}}"),
                      width: width, height: 30)
    }

    static func statusLine(_ harness: ReaderHarness) -> String {
        String(harness.screen.split(separator: "\n", omittingEmptySubsequences: false).last ?? "")
    }

    // MARK: - The rule, on labels given as values

    /// Front matter, a body from 1, and an appendix that starts again at 1.
    static let restarting = DocumentInfo(pageCount: 9, title: nil, labels: ["i", "ii", "1", "2", "3", "4", "1", "2", "3"], outline: [])

    @Test func aLabelNamesItsPrintedPageAndHashNamesThePageOfTheFile() {
        let info = Self.restarting
        #expect(info.resolve(.printed("ii")) == .page(2))
        #expect(info.resolve(.printed("II")) == .page(2), "labels in any case")
        #expect(info.resolve(.printed(" 4 ")) == .page(6))
        #expect(info.resolve(.physical(4)) == .page(4))
        #expect(info.resolve(.physical(10)) == .pastTheEnd("#10"))
        #expect(PageRequest(typed: "#4") == .physical(4))
        #expect(PageRequest(typed: " # 4") == .physical(4))
        #expect(PageRequest(typed: "xii") == .printed("xii"))
        #expect(PageRequest(typed: "#x") == nil)
        #expect(PageRequest(typed: "") == nil)
    }

    @Test func aLabelThatOccursTwiceIsTheFirstAtOrAfterTheCurrentPageElseTheFirst() {
        let info = Self.restarting
        #expect(info.resolve(.printed("2"), from: 1) == .page(4))
        #expect(info.resolve(.printed("2"), from: 4) == .page(4), "the current page counts")
        #expect(info.resolve(.printed("2"), from: 5) == .page(8), "reading the appendix, 2 is the appendix's")
        #expect(info.resolve(.printed("4"), from: 7) == .page(6), "no later 4: the first in the document")
        #expect(info.resolve(.printed("1"), from: 9) == .page(3))
    }

    @Test func aNumberThatIsNoLabelIsThePageOfTheFileWithThatNumberAndSaysSo() {
        let info = Self.restarting
        #expect(info.resolve(.printed("7")) == .noSuchLabel("7", physical: 7))
        #expect(info.note(on: .noSuchLabel("7", physical: 7)).contains("No page is labelled 7"))
        #expect(info.resolve(.printed("10")) == .pastTheEnd("10"))
        #expect(info.resolve(.printed("xlii")) == .notFound("xlii"))
        #expect(info.resolve(.printed("0")) == .notFound("0"))
        #expect(info.resolve(.printed("+4")) == .notFound("+4"))
    }

    @Test func theScreenNamesThePrintedPageFirst() {
        let info = DocumentInfo(pageCount: 2415, title: nil, labels: (1...31).map { "\($0)" }.map { "x\($0)" } + (1...2384).map(String.init), outline: [])
        #expect(info.pageName(1031) == "p. 1000 (1031 of 2415)")
        let plain = DocumentInfo(pageCount: 11, title: nil, labels: (1...11).map(String.init), outline: [])
        #expect(plain.pageName(7) == "p. 7")
    }

    // MARK: - In the reader, on a real manual with roman front matter

    /// The note editor and its messages name the page as the status line does.
    @Test func theNoteEditorNamesThePrintedPage() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness(library: Fixtures.library("@manual{rexts, title = {Writing R Extensions}, file = {:\(Self.manual.path):PDF}}"),
                                    width: 120, height: 30, store: try ReadingStore(directory: folder))
        harness.press("Enter")
        harness.press(":")
        harness.type("100")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 107)
        harness.press("n")
        #expect(harness.screen.contains("Note on p. 100 (107 of 236) of rexts"), "\(harness.screen)")
        harness.type("a thought")
        harness.press("C-s")
        #expect(harness.state.message?.text == "Saved the note on p. 100 (107 of 236)")
    }

    @Test func goToIsMonotonicOnARealManualAndFallsBackWithAMessage() throws {
        var harness = Self.harness(key: "rexts", pdf: Self.manual)
        harness.press("Enter")
        let info = try #require(harness.state.reading?.info)
        #expect(info.pageCount == 236)
        #expect(info.labels.prefix(8) == ["T-1", "T-2", "i", "ii", "iii", "iv", "v", "1"])
        // Every printed number lands 7 pages further on, in order: no jump to the end and back.
        var landed: [Int] = []
        for number in 1...229 {
            harness.press(":")
            harness.type(String(number))
            harness.press("Enter")
            landed.append(harness.state.reading?.page ?? 0)
        }
        #expect(landed == (1...229).map { $0 + 7 })
        harness.press(":")
        harness.type("229")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 236)
        #expect(Self.statusLine(harness).contains("p. 229 (236 of 236) · 100%"), "\(Self.statusLine(harness))")
        harness.press(":")
        harness.type("230")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 230)
        #expect(harness.state.message?.text.contains("No page is labelled 230") == true, "\(String(describing: harness.state.message))")
        #expect(Self.statusLine(harness).contains("p. 223 (230 of 236)"))
        harness.press(":")
        harness.type("#5")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 5)
        #expect(Self.statusLine(harness).contains("p. iii (5 of 236)"), "\(Self.statusLine(harness))")
        harness.press(":")
        harness.type("#237")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 5)
        #expect(harness.state.message?.isError == true)
    }

    @Test func aDocumentWithoutLabelsShowsThePageAsBefore() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.read("goedel1931formal")
        harness.press(":")
        harness.type("7")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 7)
        #expect(harness.state.message == nil)
        #expect(Self.statusLine(harness).contains("p. 7 / 11 · 63%"))
    }

    // MARK: - Citations and links mean the printed page

    @Test func aCitationOpensThePrintedPageOfAnArticleWhosePagesStartAt151() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let article = folder.appendingPathComponent("article.pdf")
        try LabelledPDF.write(pageCount: 11, ranges: [.init(firstPage: 1, start: 151)], to: article)
        var harness = Self.harness(key: "article", pdf: article)
        harness.run(harness.state.openLink(try ReferenceLink.parse("[@article, p. 153]")))
        #expect(harness.state.reading?.page == 3)
        #expect(Self.statusLine(harness).contains("p. 153 (3 of 11)"), "\(Self.statusLine(harness))")
        harness.press("q", "Esc")
        harness.run(harness.state.openLink(try ReferenceLink.parse("article:#3")))
        #expect(harness.state.reading?.page == 3, "#3 is the third page of the file")
        harness.press("q", "Esc")
        harness.run(harness.state.openLink(try ReferenceLink.parse("article:5")))
        #expect(harness.state.reading?.page == 5, "5 is no printed page here: the fifth page of the file")
        #expect(harness.state.message?.text.contains("No page is labelled 5") == true, "\(String(describing: harness.state.message))")
    }

    @Test func aCitedPagePastTheEndSaysSo() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let onePage = folder.appendingPathComponent("one.pdf")
        try LabelledPDF.write(pageCount: 1, ranges: [], to: onePage)
        var harness = Self.harness(key: "Key", pdf: onePage)
        harness.run(harness.state.openLink(try ReferenceLink.parse("[@Key, p. 3]")))
        #expect(harness.state.reading?.page == 1)
        let message = try #require(harness.state.message)
        #expect(message.text.contains("p. 3 is past the end") && message.text.contains("1 page"), "\(message.text)")
        #expect(message.isError)
    }

    @Test func theCopiedLinkNamesThePrintedPageOrThePageOfTheFile() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.read("knuth1984texbook")
        harness.press("]", "y")
        // Page 2 of the file is printed ii: no number says it, so the link counts pages of the file.
        #expect(harness.handlerEffects.last == .handlers(.copyToClipboard(text: "bibread://open?refs=[knuth1984texbook:%232]&library=library.bib", what: "the link")))
        harness.press("]", "]", "y")
        // Page 4 of the file is printed 2.
        #expect(harness.handlerEffects.last == .handlers(.copyToClipboard(text: "bibread://open?refs=[knuth1984texbook:2]&library=library.bib", what: "the link")))
        harness.press("q")
        harness.run(harness.state.openLink(try ReferenceLink.parse("bibread://open?refs=[knuth1984texbook:%232]")))
        #expect(harness.state.reading?.page == 2)
        harness.press("q", "Esc")
        harness.run(harness.state.openLink(try ReferenceLink.parse("bibread://open?refs=[knuth1984texbook:2]")))
        #expect(harness.state.reading?.page == 4)
    }

    // MARK: - Bookmarks store the page of the file and show the printed page

    @Test func aBookmarkStoresThePageOfTheFileWithItsPrintedLabel() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        let library = Fixtures.library("@manual{rexts, title = {Writing R Extensions}, file = {:\(Self.manual.path):PDF}}")
        var harness = ReaderHarness(library: library, width: 120, height: 30, store: store)
        harness.press("Enter", ":")
        harness.type("#3")
        harness.press("Enter", "m")
        #expect(harness.state.message?.text.hasPrefix("Bookmarked p. i (3 of 236)") == true, "\(String(describing: harness.state.message))")
        let saved = try ReadingStore(directory: folder).savedBookmarks().nodes.map(\.reference)
        #expect(saved.map { $0?.page } == [3], "the page of the file, as bookmarks always stored")
        #expect(saved.map { $0?.printedPage } == ["i"], "and its printed label")
        harness.press(":")
        harness.type("100")
        harness.press("Enter", "q")

        var again = ReaderHarness(library: library, width: 120, height: 30, store: store)
        again.press("b")
        #expect(again.screen.contains("rexts p. i (#3) · "), "\(again.screen)")
        again.press("Enter")
        #expect(again.state.reading?.page == 3)
    }
}
