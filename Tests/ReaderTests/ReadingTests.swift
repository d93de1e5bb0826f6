import BibModel
import BibreadServices
import BibreadValues
import BibreadTestSupport
import Foundation
import PDFText
import Testing
@testable import Reader
@testable import ReaderCore
import SyncEngine

/// The reading view on the sample PDFs, driven through update with real poppler extraction.
@Suite("reading view")
struct ReadingTests {
    @Test func goToAPageByNumberOrLabel() throws {
        var harness = ReaderHarness.samples(width: 100, height: 30)
        harness.read("knuth1984texbook")
        #expect(harness.state.reading?.info?.labels.prefix(3) == ["i", "ii", "1"])
        harness.press(":")
        harness.type("ii")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 2)
        #expect(harness.screen.contains("p. ii (2 of 5)"))
        harness.press(":")
        harness.type("3")
        harness.press("Enter")
        // A number is the printed page: "3" is the body's page 3, the fifth page of the file.
        #expect(harness.state.reading?.page == 5)
        harness.press(":")
        harness.type("xlii")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 5)
        #expect(harness.state.message?.text.contains("No page 'xlii'") == true)
    }

    @Test func pagesTurnWithBracketsAndPastTheEndOfAPage() throws {
        var harness = ReaderHarness.samples(width: 100, height: 30)
        harness.read("knuth1984texbook")
        harness.press("]")
        #expect(harness.state.reading?.page == 2)
        harness.press("[", "[")
        #expect(harness.state.reading?.page == 1)
        #expect(harness.state.message?.text == "This is the first page")
        harness.press("G")
        #expect(harness.state.reading?.page == 5)
        harness.press(":")
        harness.type("1")
        harness.press("Enter")
        #expect(harness.state.reading?.page == 3)
        // PgDn scrolls within a long page, then turns it.
        var pageDowns = 0
        while harness.state.reading?.page == 3 && pageDowns < 20 {
            harness.press("PgDn")
            pageDowns += 1
        }
        #expect(pageDowns > 1)
        #expect(harness.state.reading?.page == 4)
        harness.press("PgUp")
        #expect(harness.state.reading?.page == 3)
        #expect(harness.state.reading!.scroll > 0, "PgUp back onto a page lands at its end")
    }

    @Test func searchFindsMatchesAcrossPagesAndHighlightsThem() throws {
        var harness = ReaderHarness.samples(width: 100, height: 30)
        harness.read("knuth1984texbook")
        harness.press("/")
        harness.type("page builder")
        harness.press("Enter")
        let first = try #require(harness.state.reading?.page)
        #expect(first > 1)
        let rendered = harness.state.render()
        let highlighted = rendered.cells.filter { $0.style.role == .searchMatch }.map(\.text).joined()
        #expect(highlighted.lowercased().contains("page builder"))
        harness.press("/")
        harness.type("no such words anywhere")
        harness.press("Enter")
        #expect(harness.state.message?.isError == true)
        #expect(harness.state.reading?.page == first)
    }

    @Test func theOutlineJumpsToASection() throws {
        var harness = ReaderHarness.samples(width: 100, height: 30)
        harness.read("knuth1984texbook")
        harness.press("c")
        #expect(harness.state.showingOutline == true)
        #expect(harness.screen.contains("Contents"))
        let outline = try #require(harness.state.reading?.info?.outline)
        let target = try #require(outline.firstIndex { $0.title.contains("Mathematics") })
        for _ in 0..<target { harness.press("j") }
        harness.press("Enter")
        #expect(harness.state.reading?.page == outline[target].page)
    }

    @Test func layoutModeKeepsColumnsSideBySide() throws {
        var harness = ReaderHarness.samples(width: 160, height: 40)
        harness.read("dijkstra1959note")
        let reflowLines = harness.state.readingLines(try #require(harness.state.reading))
        harness.press("t")
        #expect(harness.state.reading?.mode == .layout)
        let layoutLines = harness.state.readingLines(try #require(harness.state.reading))
        #expect(layoutLines.contains { $0.contains("     ") && $0.split(separator: " ").count > 6 })
        #expect(layoutLines != reflowLines)
        harness.press("l")
        #expect(harness.state.reading?.column ?? 0 >= 0)
    }

    @Test func anImageOnlyPageSaysItHasNoText() throws {
        var harness = ReaderHarness.samples(width: 100, height: 30)
        harness.read("dijkstra1959note")
        harness.press("]")
        #expect(harness.screen.contains("no text layer"))
    }

    @Test func positionIsSavedAsYouReadAndResumedNextTime() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        var harness = ReaderHarness.samples(width: 100, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.press(":")
        harness.type("7")
        harness.press("Enter", "j", "j")
        let fingerprint = try PDFFingerprint.of(path: Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path)
        // Saved before leaving the view.
        #expect(try store.position(fingerprint: fingerprint)?.page == 7)
        harness.press("q")

        var again = ReaderHarness.samples(width: 100, height: 30, store: store)
        again.read("goedel1931formal")
        #expect(again.state.reading?.page == 7)
        #expect(again.state.reading!.scroll > 0)
        #expect(again.state.message?.text == "Resumed at p. 7")
        // Reading times feed the Recently read group.
        #expect(try store.lastRead(of: again.state.library!, localPath: LinkedFileLocator.shared.localPath(of:), fingerprint: { try? PDFFingerprint.of(path: $0) })["goedel1931formal"] != nil)
        again.press("q", "Esc", "S-Tab")
        while again.state.groupRows[again.state.groupCursor.selected].name != BuiltInGroup.recentlyRead.name { again.press("j") }
        again.press("Enter")
        #expect(again.state.visible.map { again.state.library!.entries[$0].key } == ["goedel1931formal"])
    }

    @Test func aPositionReachedOnAnotherMachineSaysWhereAndWhen() throws {
        let folders = [try Fixtures.temporaryDirectory(), try Fixtures.temporaryDirectory()]
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        // Read on the laptop two hours ago (its clock says so).
        let laptop = try ReadingStore(directory: folders[0], wallClock: { Int64((Date().timeIntervalSince1970 - 2 * 3600 - 60) * 1000) })
        try laptop.publishDeviceName("laptop")
        let path = Fixtures.samples.appendingPathComponent("papers/incompleteness.pdf").path
        try laptop.save(ReadingPosition(fingerprint: try PDFFingerprint.of(path: path), path: "/elsewhere/incompleteness.pdf",
                                        page: 9, scroll: 0, updatedAt: Date().timeIntervalSince1970 - 2 * 3600))
        // Here, now: the laptop's log merged by a sync.
        let here = try ReadingStore(directory: folders[1])
        _ = try here.merge([StateLogFile(path: "laptop.jsonl", version: "1", operations: try laptop.ownOperations())], remote: "lab")
        var harness = ReaderHarness.samples(width: 100, height: 30, store: here)
        harness.read("goedel1931formal")
        #expect(harness.state.reading?.page == 9)
        #expect(harness.state.message?.text == "Resumed at p. 9 (read on laptop 2 h ago)")
    }

    @Test func howLongAgoReadsAsPeopleSayIt() {
        let cases: [(Double, String)] = [(-30, "just now"), (0, "just now"), (59, "just now"), (60, "1 min ago"), (3_599, "59 min ago"),
                                         (3_600, "1 h ago"), (47 * 3_600 + 59 * 60, "47 h ago"), (48 * 3_600, "2 days ago"),
                                         (400 * 86_400, "400 days ago"), (.nan, "just now")]
        for (seconds, said) in cases { #expect(ElapsedTime.ago(seconds) == said, "\(seconds) s") }
    }

    /// `t` (layout) was forgotten: each document opened reflowed again.
    @Test func layoutModeIsRememberedPerDocument() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        var harness = ReaderHarness.samples(width: 100, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.press("t")
        #expect(harness.state.reading?.mode == .layout)
        harness.press("q")

        var again = ReaderHarness.samples(width: 100, height: 30, store: store)
        again.read("goedel1931formal")
        #expect(again.state.reading?.mode == .layout)
        #expect(again.state.reading?.pageText != nil)
        // Another document keeps its own mode.
        var other = ReaderHarness.samples(width: 100, height: 30, store: store)
        other.read("knuth1981breaking")
        #expect(other.state.reading?.mode == .reflow)
        // Back to reflow is remembered too, though the page did not move.
        again.press("t")
        #expect(again.state.reading?.mode == .reflow)
        again.press("q")
        var third = ReaderHarness.samples(width: 100, height: 30, store: store)
        third.read("goedel1931formal")
        #expect(third.state.reading?.mode == .reflow)
    }

    /// `t` pressed while the PDF is still opening (as on a busy machine) was shown but not
    /// saved: the document opened reflowed the next time.
    @Test func layoutChosenWhileTheDocumentOpensIsRemembered() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        var harness = ReaderHarness.samples(width: 100, height: 30, store: store)
        harness.press("/")
        harness.type("key:goedel1931formal")
        harness.press("Enter")
        // The PDF opens in the background, and `t` comes before it has.
        let opening = harness.state.update(.key(Key(name: "Enter")!))
        harness.press("t")
        harness.run(opening)
        #expect(harness.state.reading?.mode == .layout)
        #expect(harness.state.reading?.info != nil)
        harness.press("q")

        var again = ReaderHarness.samples(width: 100, height: 30, store: store)
        again.read("goedel1931formal")
        #expect(again.state.reading?.mode == .layout)
    }

    /// Saving where the reader is waited behind whatever the documents' queue was doing (a
    /// search through a long manual), and the program could exit first: the write was lost.
    /// Reading writes have their own queue, which the app finishes before it exits.
    @Test func readingWritesDoNotWaitBehindASearchAndFinishBeforeExit() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        let path = Fixtures.corpus("pdfs/R-exts.pdf").path
        var harness = ReaderHarness(library: Fixtures.library("@manual{exts, title = {Writing R Extensions}, file = {:\(path):PDF}}"),
                                    width: 100, height: 30, store: store)
        harness.press("Enter")
        try #require(harness.state.reading?.info != nil)
        let runner = EffectRunner(work: harness.work, mailbox: Mailbox(wakeDescriptor: -1))
        // A search for words no page has reads every page of the document.
        runner.run(.document(.findInDocument(path: path, query: "no page has these words", fromPage: 1, forward: true, mode: .reflow, width: 100)))
        runner.run(.reading(.savePosition(path: path, page: 5, scroll: 0.25)))
        runner.run(.reading(.saveReadingMode(path: path, mode: .layout)))
        runner.finishReadingWrites()
        let saved = try store.position(fingerprint: PDFFingerprint.of(path: path))
        #expect(saved?.page == 5)
        #expect(saved?.mode == .layout)
    }

    /// A store written before modes were kept (schema v1, by `sqlite3`) opens, keeps its
    /// positions (shown reflowed), and then keeps a mode beside each position.
    @Test func aStoreFromBeforeModesKeepsItsPositions() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", folder.appendingPathComponent("state.sqlite").path, """
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE position (fingerprint TEXT PRIMARY KEY NOT NULL, path TEXT NOT NULL,
                page INTEGER NOT NULL CHECK (page >= 1), scroll REAL NOT NULL DEFAULT 0, updated_at REAL NOT NULL);
            CREATE TABLE reading (library TEXT NOT NULL, key TEXT NOT NULL, last_read REAL NOT NULL, PRIMARY KEY (library, key));
            INSERT INTO position VALUES ('sha256:abc', '/papers/a.pdf', 7, 0.5, 100);
            """])
        try #require(old.status == 0, "\(old.standardError)")
        let store = try ReadingStore(directory: folder)
        #expect(try store.position(fingerprint: "sha256:abc")
                == ReadingPosition(fingerprint: "sha256:abc", path: "/papers/a.pdf", page: 7, scroll: 0.5, updatedAt: 100))
        try store.saveMode(.layout, fingerprint: "sha256:abc", path: "/papers/a.pdf", at: 200)
        try store.save(ReadingPosition(fingerprint: "sha256:abc", path: "/papers/a.pdf", page: 8, scroll: 0, updatedAt: 300))
        #expect(try store.position(fingerprint: "sha256:abc")?.mode == .layout)
        #expect(try store.position(fingerprint: "sha256:abc")?.page == 8)
        // A mode chosen before any position was saved starts at page 1.
        try store.saveMode(.layout, fingerprint: "sha256:new", path: "/papers/b.pdf", at: 400)
        #expect(try store.position(fingerprint: "sha256:new")
                == ReadingPosition(fingerprint: "sha256:new", path: "/papers/b.pdf", page: 1, scroll: 0, updatedAt: 400, mode: .layout))
    }

    @Test func anEncryptedPDFAsksForItsPassword() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked.pdf")
        try EncryptedSample.write(to: locked)
        let library = Fixtures.library("@misc{locked, title = {Locked}, file = {:\(locked.path):PDF}}")
        var harness = ReaderHarness(library: library, width: 100, height: 30)
        harness.press("Enter")
        #expect(harness.state.readingPrompt == .password("", wrong: false))
        #expect(harness.screen.contains("This PDF is encrypted. Password:"))
        harness.type("wrong")
        #expect(harness.screen.contains("•••••"))
        #expect(!harness.screen.contains("wrong"))
        harness.press("Enter")
        #expect(harness.state.readingPrompt == .password("", wrong: true))
        harness.type("user")
        harness.press("Enter")
        #expect(harness.state.readingPrompt == nil)
        #expect(harness.state.reading?.info?.pageCount == 5)
    }

    @Test func aDamagedPDFGivesAClearError() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = folder.appendingPathComponent("damaged.pdf")
        let bytes = try Data(contentsOf: Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf"))
        try bytes.prefix(bytes.count / 2).write(to: damaged)
        let library = Fixtures.library("@misc{damaged, title = {Damaged}, file = {:\(damaged.path):PDF}}")
        var harness = ReaderHarness(library: library, width: 100, height: 30)
        harness.press("Enter")
        #expect(harness.state.reading?.error?.contains("cannot open PDF") == true)
        #expect(harness.screen.contains("damaged"))
        harness.press("q")
        #expect(harness.state.reading == nil)
    }
}
