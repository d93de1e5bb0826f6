import BibModel
import BibreadServices
import BibreadTestSupport
import BibreadValues
import Foundation
import ReadingList
import Testing
@testable import Reader
@testable import ReaderCore

/// Filing bookmarks into folders from the reader, and a bookmarks view that follows changes
/// made by another bibread (the command line) while it is open. A real state store.
@Suite("filing bookmarks into folders")
struct BookmarkFilingTests {
    /// A store in a fresh folder holding `Logic/Week 1` and `Later`; the caller removes the folder.
    private func makeStore() throws -> (ReadingStore, URL, logic: Int64, week: Int64, later: Int64) {
        let folder = try Fixtures.temporaryDirectory()
        let store = try ReadingStore(directory: folder)
        let logic = try store.addFolder(named: "Logic")
        let week = try store.addFolder(named: "Week 1", in: logic)
        let later = try store.addFolder(named: "Later")
        return (store, folder, logic, week, later)
    }

    /// The id of the folder holding the bookmark of `key`, nil at the top level.
    private func parent(ofBookmarkFor key: String, in tree: SavedBookmarks) -> Int64?? {
        guard let node = tree.allNodes.first(where: { $0.reference?.citeKey == key }) else { return .none }
        return .some(tree.ancestors(of: node.id).last)
    }

    @Test func mFilesTheBookmarkIntoTheFolderSelectedLastInTheBookmarksView() throws {
        let (store, folder, _, week, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b", "Enter", "j")  // open Logic, select Week 1
        #expect(harness.state.selectedBookmarkRow?.node.id == week)
        harness.press("q")
        harness.read("goedel1931formal")
        harness.press("m")
        #expect(parent(ofBookmarkFor: "goedel1931formal", in: try store.savedBookmarks()) == .some(week))
        #expect(harness.state.message?.text.contains("in Logic/Week 1") == true, "\(String(describing: harness.state.message))")
    }

    @Test func mAsksForTheFolderWhenNoneWasSelectedAndKeepsTheAnswer() throws {
        let (store, folder, _, _, later) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.read("goedel1931formal")
        // An unknown folder says so and adds nothing.
        harness.press("m")
        #expect(harness.screen.contains("Bookmark in folder"))
        harness.type("Nowhere")
        harness.press("Enter")
        #expect(harness.state.message?.text.contains("no bookmark folder 'Nowhere'") == true)
        #expect(try store.savedBookmarks().allNodes.allSatisfy { $0.kind == .folder }, "nothing is added before a good answer")
        // Asked again; the answer (names ignore case) files it, and is kept for the next pages.
        harness.press("m")
        harness.type("later")
        harness.press("Enter")
        #expect(parent(ofBookmarkFor: "goedel1931formal", in: try store.savedBookmarks()) == .some(later))
        harness.press("]", "m")
        #expect(harness.state.readingPrompt == nil, "not asked twice")
        let inLater = try store.savedBookmarks().node(id: later)?.children.compactMap(\.reference?.page)
        #expect(inLater == [1, 2])
    }

    @Test func withoutFoldersMAddsAtTheTopLevelWithoutAsking() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.read("goedel1931formal")
        harness.press("m")
        #expect(harness.state.readingPrompt == nil)
        #expect(try store.savedBookmarks().nodes.map(\.reference?.page) == [1])
    }

    @Test func aKeyInTheBookmarksViewMovesTheSelectedBookmarkIntoAFolder() throws {
        let (store, folder, _, week, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        try store.addBookmark(named: "Incompleteness", reference: PageReference(citeKey: "goedel1931formal", page: 3))
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b", "G")
        #expect(harness.state.selectedBookmarkRow?.node.kind == .bookmark)
        let keys = harness.state.keymap.keys(for: .moveBookmark)
        let key = try #require(keys.first, "the move action has a key in the action table")
        harness.send(.key(key))
        harness.type("Logic/Week 1")
        harness.press("Enter")
        #expect(parent(ofBookmarkFor: "goedel1931formal", in: try store.savedBookmarks()) == .some(week))
        #expect(harness.state.selectedBookmarkRow?.node.reference?.citeKey == "goedel1931formal", "the moved bookmark stays selected")
        // The help screen lists it, with its key, under Bookmarks.
        let help = HelpOverlay.lines(harness.state, width: 200).map(\.0)
        let bookmarksSection = try #require(help.firstIndex(of: "Bookmarks"))
        #expect(help[bookmarksSection...].contains { $0.hasPrefix("  \(key.description) ") && $0.contains("Move the selection into a folder") })
    }

    @Test func theBookmarksViewFollowsBookmarksAddedByAnotherProcess() throws {
        let (store, folder, _, _, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.press("b")
        #expect(!harness.screen.contains("goedel1931formal"))
        // Another connection to the same file: what `bibread bookmarks add` does.
        let other = try ReadingStore(directory: folder)
        try other.addBookmark(named: "From the shell", reference: PageReference(citeKey: "goedel1931formal", page: 7))
        harness.send(.tick)
        #expect(harness.screen.contains("goedel1931formal p. 7"))
        // A tick with nothing new asks the store, and changes nothing.
        let before = harness.state.bookmarks
        harness.send(.tick)
        #expect(harness.state.bookmarks == before)
    }
}
