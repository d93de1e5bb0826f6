import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import ReadingList
import Testing
@testable import Reader
@testable import ReaderCore

/// Bookmarks and page notes in the reader, driven through update with a real state store and
/// real PDFs.
@Suite("bookmarks in the reader")
struct BookmarkTests {
    /// A state store in a fresh folder, removed afterwards by the caller.
    private func makeStore() throws -> (ReadingStore, URL) {
        let folder = try Fixtures.temporaryDirectory()
        return (try ReadingStore(directory: folder), folder)
    }

    @Test func mBookmarksThePageAndTheBookmarkOpensThereAfterARestart() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.press(":")
        harness.type("4")
        harness.press("Enter", "m")
        #expect(harness.state.message?.text.hasPrefix("Bookmarked p. 4") == true)
        #expect(harness.screen.contains("★ p. 4 / "))
        let saved = try store.savedBookmarks()
        #expect(saved.nodes.map(\.reference) == [PageReference(citeKey: "goedel1931formal", library: "library.bib", page: 4)])
        // Read on elsewhere, so that the remembered position is not the bookmark's page.
        harness.press(":")
        harness.type("9")
        harness.press("Enter", "q")
        #expect(harness.screen.contains("★"), "the list marks a bookmarked reference")

        var again = ReaderHarness.samples(width: 120, height: 30, store: store)
        again.press("b")
        #expect(again.screen.contains("★ goedel1931formal p. 4 · "))
        again.press("Enter")
        #expect(again.state.reading?.page == 4, "a bookmark opens at its page, not where reading stopped")
        again.press("q")
        #expect(again.state.bookmarksView != nil, "leaving the PDF goes back to the bookmarks")
        again.press("q")
        #expect(again.state.bookmarksView == nil)
    }

    @Test("m and C-s say nothing until the store has the write: the confirmation comes with the write's result (issue 26, item 3)")
    func theConfirmationComesFromTheWrite() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.state.message = nil
        // The key alone (the write not done yet): no message, and the write carries it.
        let effects = harness.state.update(.key(.character("m")))
        #expect(harness.state.message == nil, "\(String(describing: harness.state.message))")
        #expect(effects.contains { if case .bookmarks(.addBookmark(_, _, _, let confirmation)) = $0 { confirmation.hasPrefix("Bookmarked p. 1") } else { false } },
                "\(effects)")
        #expect(try store.savedBookmarks().nodes.isEmpty)
        harness.run(effects)
        #expect(try store.savedBookmarks().nodes.count == 1)
        #expect(harness.state.message?.text.hasPrefix("Bookmarked p. 1") == true)

        harness.press("n")
        harness.type("Diagonal")
        harness.state.message = nil
        let saving = harness.state.update(.key(.control("s")))
        #expect(harness.state.message == nil, "\(String(describing: harness.state.message))")
        #expect(try store.notes(citeKey: "goedel1931formal").isEmpty)
        harness.run(saving)
        #expect(try store.notes(citeKey: "goedel1931formal") == [1: "Diagonal"])
        #expect(harness.state.message?.text == "Saved the note on p. 1")
    }

    @Test func mAgainRemovesTheBookmarkOfThatPage() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.press("m")
        #expect(try store.savedBookmarks().nodes.count == 1)
        harness.press("m")
        #expect(try store.savedBookmarks().nodes.isEmpty)
        #expect(harness.state.message?.text == "Removed the bookmark at p. 1")
    }

    @Test func aPageNoteIsEditedSavedAndShownBesideTheText() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 130, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.press("]", "n")
        #expect(harness.screen.contains("Note on p. 2 of goedel1931formal"))
        harness.type("Lemma 2 is the key")
        harness.press("Enter")
        harness.type("see also p. 7")
        harness.press("C-s")
        #expect(try store.note(citeKey: "goedel1931formal", page: 2) == "Lemma 2 is the key\nsee also p. 7")
        let screen = harness.screen
        #expect(screen.contains("✎ Note, p. 2"))
        #expect(screen.contains("Lemma 2 is the key"))
        #expect(screen.contains("✎ p. 2 / "))

        // Esc with changes asks first; a second Esc discards them.
        harness.press("n")
        harness.type(" (checked)")
        harness.press("Esc")
        #expect(harness.state.noteEditor != nil)
        #expect(harness.state.message?.text.contains("Esc again discards") == true)
        harness.press("Esc")
        #expect(harness.state.noteEditor == nil)
        #expect(try store.note(citeKey: "goedel1931formal", page: 2) == "Lemma 2 is the key\nsee also p. 7")

        // Notes come back with the document.
        var again = ReaderHarness.samples(width: 130, height: 30, store: store)
        again.read("goedel1931formal")
        #expect(again.state.reading?.notes[2] == "Lemma 2 is the key\nsee also p. 7")
    }

    /// Notes and bookmarks are kept by cite key, and the reading view knows the paper by its
    /// address: for the second of two references with one key (`twice#2`) the view showed none
    /// of its notes (they arrived under `twice`, compared with `twice#2`), and `m` on a page it
    /// had bookmarked added a second bookmark instead of removing the first (it looked for
    /// bookmarks of `twice#2`). Typed keys make the compiler tell the two apart.
    @Test func theNotesAndBookmarksOfTheSecondReferenceOfAKeyAreItsOwn() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let papers = Fixtures.samples.appendingPathComponent("papers").path
        let library = Fixtures.library("""
        @article{twice, title = {First of the key}, file = {:\(papers)/tex-tour.pdf:PDF}}
        @article{twice, title = {Second of the key}, file = {:\(papers)/incompleteness.pdf:PDF}}
        """)
        func openSecond(_ harness: inout ReaderHarness) {
            harness.press("/")
            harness.type("Second")
            harness.press("Enter", "Enter")
        }
        var harness = ReaderHarness(library: library, width: 130, height: 30, store: store)
        openSecond(&harness)
        #expect(harness.state.reading?.title == "Second of the key")
        harness.press("n")
        harness.type("kept with the second")
        harness.press("C-s")
        #expect(try store.note(citeKey: "twice", page: 1) == "kept with the second")
        // m bookmarks the page; m again finds that bookmark (under the cite key) and removes it.
        harness.press("m")
        #expect(try store.savedBookmarks().nodes.map(\.reference) == [PageReference(citeKey: "twice", library: "library.bib", page: 1)])
        harness.press("m")
        #expect(harness.state.message?.text.hasPrefix("Removed the bookmark") == true, "\(String(describing: harness.state.message))")
        #expect(try store.savedBookmarks().nodes.isEmpty)

        var again = ReaderHarness(library: library, width: 130, height: 30, store: store)
        openSecond(&again)
        #expect(again.state.reading?.title == "Second of the key")
        #expect(again.state.reading?.notes[1] == "kept with the second")
    }

    @Test func aNarrowWindowShowsTheNoteOnTheMessageLine() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.setNote(citeKey: "goedel1931formal", page: 1, text: "First page note")
        var harness = ReaderHarness.samples(width: 70, height: 24, store: store)
        harness.read("goedel1931formal")
        #expect(harness.state.showsNotePanel == false)
        #expect(harness.screen.contains("✎ First page note"))
    }

    @Test func aBookmarkWhoseKeyLeftTheLibrarySaysSo() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.addBookmark(named: "Gone", reference: PageReference(citeKey: "vanished2001", library: "old.bib", page: 3))
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b")
        #expect(harness.screen.contains("vanished2001 p. 3 · Gone  (not in this library)"))
        harness.press("Enter")
        #expect(harness.state.reading == nil)
        #expect(harness.state.message == StatusMessage("vanished2001 is not in this library (the list names the library old.bib)", isError: true))
    }

    @Test func foldersAreMadeRenamedAndDeleted() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b", "a")
        harness.type("Seminar")
        harness.press("Enter")
        #expect(try store.savedBookmarks().nodes.map(\.name) == ["Seminar"])
        harness.press("a")
        harness.type("Week 1")
        harness.press("Enter")
        // Made inside the selected folder, and selected.
        #expect(try store.savedBookmarks().nodes.first?.children.map(\.name) == ["Week 1"])
        #expect(harness.state.selectedBookmarkRow?.node.name == "Week 1")
        harness.press("r", "C-u")
        harness.type("Week one")
        harness.press("Enter")
        #expect(try store.savedBookmarks().nodes.first?.children.map(\.name) == ["Week one"])
        harness.press("k", "d")
        #expect(harness.screen.contains("Delete the folder Seminar and all it holds? y/n"))
        harness.press("n")
        #expect(try store.savedBookmarks().nodes.count == 1)
        harness.press("d", "y")
        #expect(try store.savedBookmarks().nodes.isEmpty)
    }

    @Test func importingAListWithNotesAsksAndAppendsToTheUsersNotes() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.setNote(citeKey: "goedel1931formal", page: 2, text: "My own note")
        let list = ReadingList(root: BookmarkFolder(name: "Logic seminar", children: [
            .bookmark(Bookmark(name: "Incompleteness", reference: PageReference(citeKey: "goedel1931formal", page: 2, lastPage: 3),
                               notes: ["Read the proof sketch", "Compare with Turing"])),
            .bookmark(Bookmark(name: "Missing", reference: PageReference(citeKey: "nobody1999", page: 1))),
        ]), includesPageNotes: true)
        let file = folder.appendingPathComponent("seminar.plist")
        try Data(ReadingListCoder.encode(list, as: .xml)).write(to: file)

        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b", "i")
        harness.type(file.path)
        harness.press("Enter")
        #expect(harness.screen.contains("'Logic seminar' carries 2 page notes."))
        harness.press("y")
        #expect(harness.state.message?.text == "Imported 'Logic seminar': 2 bookmarks, 2 page notes; 1 cite key is not in this library")
        #expect(try store.note(citeKey: "goedel1931formal", page: 2) == "My own note\n\nRead the proof sketch")
        #expect(try store.note(citeKey: "goedel1931formal", page: 3) == "Compare with Turing")
        #expect(harness.state.selectedBookmarkRow?.node.name == "Logic seminar")
        #expect(harness.screen.contains("goedel1931formal p. 2–3 · Incompleteness"))

        // The same list again, without its notes: a second folder, notes untouched.
        harness.press("i")
        harness.type(file.path)
        harness.press("Enter", "n")
        #expect(try store.savedBookmarks().nodes.map(\.name) == ["Logic seminar", "Logic seminar (2)"])
        #expect(try store.note(citeKey: "goedel1931formal", page: 3) == "Compare with Turing")
    }

    @Test func anInvalidListIsRefusedWholeWithItsFirstError() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.json")
        try Data("""
            {"Class": "Folder", "Name": "Bad", "Children": [
              {"Class": "Bookmark", "Name": "ok", "Reference": {"CiteKey": "goedel1931formal", "Page": 2}},
              {"Class": "Bookmark", "Name": "bad", "Reference": {"CiteKey": "goedel1931formal", "Page": "abc"}}
            ]}
            """.utf8).write(to: file)
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b", "i")
        harness.type(file.path)
        harness.press("Enter")
        let message = try #require(harness.state.message)
        #expect(message.isError)
        #expect(message.text.contains("Children[1].Reference.Page"))
        #expect(message.text.contains("nothing imported"))
        #expect(try store.savedBookmarks().nodes.isEmpty)
    }

    @Test func theBookmarksViewLooksRight() throws {
        let (store, folder) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let seminar = try store.addFolder(named: "Seminar", at: 1)
        try store.addBookmark(named: "Breaking paragraphs", reference: PageReference(citeKey: "knuth1981breaking", page: 2, lastPage: 4),
                              in: seminar, at: 2)
        try store.addNotemark(named: "Questions for Monday", text: "Why dynamic programming?", in: seminar, at: 3)
        try store.addBookmark(named: "Gödel", reference: PageReference(citeKey: "goedel1931formal", page: 7), at: 4)
        var harness = ReaderHarness.samples(width: 90, height: 20, store: store)
        harness.press("b", "Enter", "j")
        try ScreenSnapshot.check(harness, named: "bookmarks-90x20")
    }
}
