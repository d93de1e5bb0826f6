import BibModel
import BibreadServices
import BibreadTestSupport
import BibreadValues
import SyncEngine
import Testing
@testable import Reader
@testable import ReaderCore

/// What keys, mouse and background results do to the state.
@Suite("update")
struct UpdateTests {
    /// While a sync runs it writes the .bib itself and reads it again at its end: the watcher's
    /// report of that write asks for nothing.
    @Test func aChangeOnDiskDuringASyncIsLeftToTheSync() {
        var harness = ReaderHarness.samples()
        harness.state.syncing = (0, 0, "")
        #expect(harness.state.update(.libraryChangedOnDisk(["/x/library.bib"])).isEmpty)
        harness.state.syncing = nil
        #expect(harness.state.update(.libraryChangedOnDisk(["/x/library.bib"])) == [.app(.reloadLibrary)])
    }

    /// Update never looks at the disk: until the shell says where a reference's files are (with
    /// the marks, or when asked), the details say so, and Enter asks before it opens.
    @Test func aReferenceOpenedBeforeItsFilesAreLocatedOpensOnceTheyAre() throws {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        var state = AppState(library: library, paths: ["library.bib"], width: 120, height: 40)
        let position = try #require(library.entries.firstIndex { $0.key == "goedel1931formal" })
        state.listCursor.selected = try #require(state.visible.firstIndex(of: position))
        #expect(state.render().text.contains("◌ looking…"))
        let pdf = try #require(library.entries[position].links.files.first { $0.isPDF })

        #expect(state.update(.key(.enter)) == [.library(.locateFiles([pdf], opening: "goedel1931formal"))])
        #expect(state.reading == nil)
        let effects = state.update(.filesLocated([pdf.path: .local(pdf.path)], opening: "goedel1931formal"))
        #expect(effects.contains(.document(.openDocument(path: pdf.path, password: nil))))
        #expect(state.reading?.path == pdf.path)
        #expect(!state.render().text.contains("looking…"))
    }

    @Test func movingTheSelectionStaysWithinTheList() {
        var harness = ReaderHarness.samples(width: 120, height: 40)
        harness.press("k")
        #expect(harness.state.listCursor.selected == 0)
        harness.press("j", "j")
        #expect(harness.state.listCursor.selected == 2)
        harness.press("G")
        #expect(harness.state.listCursor.selected == 24)
        harness.press("j")
        #expect(harness.state.listCursor.selected == 24)
        harness.press("g")
        #expect(harness.state.listCursor.selected == 0)
        harness.press("PgDn")
        #expect(harness.state.listCursor.selected > 10)
    }

    @Test func searchFiltersAsYouTypeAndEscapeClears() {
        var harness = ReaderHarness.samples()
        harness.press("/")
        #expect(harness.state.searchFocused)
        harness.type("knu")
        #expect(harness.state.visible.count == 3)
        harness.type("th year:1984")
        #expect(harness.state.visible.count == 1)
        harness.press("Backspace", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace", "Backspace")
        #expect(harness.state.searchText == "knuth")
        #expect(harness.state.visible.count == 3)
        harness.press("Enter")
        #expect(!harness.state.searchFocused)
        #expect(harness.state.visible.count == 3)
        harness.press("Esc")
        #expect(harness.state.searchText.isEmpty)
        #expect(harness.state.visible.count == 25)
    }

    @Test func aBadQuerySaysWhereAndKeepsTheList() {
        var harness = ReaderHarness.samples()
        harness.press("/")
        harness.type("knuth")
        #expect(harness.state.visible.count == 3)
        harness.type(" (tex")
        #expect(harness.state.searchError?.contains("column 7") == true)
        // The last good filter stays while the query is being finished. (A phrase whose quote
        // is still open filters by the words typed so far: LibraryViewTests.)
        #expect(harness.state.visible.count == 3)
        #expect(harness.screen.contains("this '(' is never closed"))
    }

    @Test func searchTypedBeforeTheIndexIsReadyAppliesWhenItArrives() {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        var state = AppState(library: library, paths: [], width: 100, height: 30)
        _ = state.update(.key(.character("/")))
        for character in "shannon" { _ = state.update(.key(.character(character))) }
        #expect(state.visible.count == 25)
        #expect(state.render().text.contains("indexing…"))
        _ = state.update(.searchIndexReady(SearchIndex(entries: library.entries)))
        #expect(state.visible.count == 1)
    }

    @Test func enterOnAGroupShowsItsMembers() {
        var harness = ReaderHarness.samples()
        harness.press("S-Tab")
        while harness.state.groupRows[harness.state.groupCursor.selected].name != "Classics" { harness.press("j") }
        harness.press("Enter")
        #expect(harness.state.activeGroup == GroupID(path: "Classics"))
        #expect(harness.state.visible.count == 3)
        #expect(harness.state.focus == .list)
        #expect(harness.screen.contains("3 of 25 · Classics"))
    }

    @Test func groupAndSearchCombine() {
        var harness = ReaderHarness.samples()
        harness.press("/")
        harness.type("knuth")
        harness.press("Enter")
        let searched = Set(harness.state.visible)
        harness.press("Esc", "S-Tab")
        while harness.state.groupRows[harness.state.groupCursor.selected].name != "Typesetting" { harness.press("j") }
        harness.press("Enter")
        let grouped = Set(harness.state.visible)
        harness.press("/")
        harness.type("knuth")
        #expect(!harness.state.visible.isEmpty)
        #expect(Set(harness.state.visible) == searched.intersection(grouped))
        #expect(harness.state.visible.count < searched.count || harness.state.visible.count < grouped.count)
    }

    @Test func sortCyclesThroughEveryOrderAndShowsItInTheHeader() {
        var harness = ReaderHarness.samples()
        var seen: [SortKey] = [harness.state.sort]
        for _ in 0..<SortKey.allCases.count {
            harness.press("s")
            seen.append(harness.state.sort)
            #expect(harness.screen.contains("sorted by \(harness.state.sort.label)"))
        }
        #expect(Set(seen) == Set(SortKey.allCases))
        #expect(seen.first == seen.last)
    }

    @Test func sortByYearPutsTheNewestFirst() {
        var harness = ReaderHarness.samples()
        while harness.state.sort != .year { harness.press("s") }
        let years = harness.state.visible.compactMap { harness.state.library!.entries[$0].year.flatMap { Int($0) } }
        #expect(years == years.sorted(by: >))
        harness.press("S")
        let reversed = harness.state.visible.compactMap { harness.state.library!.entries[$0].year.flatMap { Int($0) } }
        #expect(reversed == reversed.sorted())
    }

    @Test func theSelectedReferenceStaysSelectedWhenTheOrderChanges() {
        var harness = ReaderHarness.samples()
        harness.press("j", "j", "j")
        let key = harness.state.selectedEntry?.key
        harness.press("s")
        #expect(harness.state.selectedEntry?.key == key)
    }

    @Test func mouseClickSelectsAndTheWheelScrolls() {
        var harness = ReaderHarness.samples(width: 120, height: 40)
        let layout = Layout(width: 120, height: 40, focus: .list)
        let list = layout.list!
        harness.send(.mouse(MouseEvent(.click, x: list.x + 5, y: list.y + 2 + 4)))
        #expect(harness.state.listCursor.selected == 4)
        harness.send(.mouse(MouseEvent(.wheelDown, x: list.x + 5, y: list.y + 5)))
        #expect(harness.state.listCursor.selected == 7)
        let groups = layout.groups!
        let classics = harness.state.groupRows.firstIndex { $0.name == "Classics" }!
        harness.send(.mouse(MouseEvent(.click, x: groups.x + 3, y: groups.y + 1 + classics)))
        #expect(harness.state.activeGroup == GroupID(path: "Classics"))
    }

    @Test func resizeKeepsTheSelectionOnScreen() {
        var harness = ReaderHarness.samples(width: 120, height: 40)
        harness.press("G")
        harness.send(.resize(width: 80, height: 24))
        let rows = Layout(width: 80, height: 24, focus: .list).contentRows(of: .list)
        #expect(harness.state.listCursor.selected == 24)
        #expect(harness.state.listCursor.top <= 24 && 24 < harness.state.listCursor.top + rows)
        #expect(harness.state.render().lines.count == 24)
    }

    @Test func enterWithoutALocalPDFSaysSo() {
        var harness = ReaderHarness.samples()
        harness.press("/")
        harness.type("key:cook1971complexity")
        harness.press("Enter", "Enter")
        #expect(harness.state.reading == nil)
        #expect(harness.state.message?.isError == true)
    }

    @Test func severalPDFsAskWhichOne() {
        let library = Fixtures.library("""
        @article{two, title = {Two files}, file = {:\(Fixtures.samples.path)/papers/tex-tour.pdf:PDF;:\(Fixtures.samples.path)/papers/incompleteness.pdf:PDF}}
        """)
        var harness = ReaderHarness(library: library, width: 100, height: 30)
        harness.press("Enter")
        #expect(harness.state.chooser?.files.count == 2)
        #expect(harness.screen.contains("has 2 PDFs"))
        harness.press("j", "Enter")
        #expect(harness.state.reading?.path.hasSuffix("incompleteness.pdf") == true)
        #expect(harness.state.reading?.pageCount == 11)
    }

    @Test func quitSavesTheSession() {
        var harness = ReaderHarness.samples()
        let effects = harness.state.update(.key(.character("q")))
        #expect(effects == [.app(.saveSession), .app(.quit)])
        #expect(harness.state.isQuitting)
    }

    @Test func aRestoredGroupThatIsGoneFallsBackToAll() {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        var state = AppState(library: library, paths: [], width: 100, height: 30)
        state.groups = GroupCatalog.savedGroups(of: library, synced: LinkedFileLocator.shared.isSynced(library))
        ReaderApp.restore(LibrarySession(group: "No such group", selection: "turing1936computable"), into: &state)
        var harness = ReaderHarness(library: library, width: 100, height: 30)
        harness.state = state
        harness.run(harness.state.start())
        #expect(harness.state.activeGroup == .all)
        #expect(harness.state.visible.count == 25)
        #expect(harness.state.selectedEntry?.key == "turing1936computable")
    }

    @Test func aRestoredFieldGroupComesBackOnceFieldGroupsAreLoaded() {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        var harness = ReaderHarness(library: library, width: 100, height: 30)
        var state = AppState(library: library, paths: [], width: 100, height: 30)
        state.groups = GroupCatalog.savedGroups(of: library, synced: LinkedFileLocator.shared.isSynced(library))
        ReaderApp.restore(LibrarySession(group: "Years/1959", sort: "title", descending: false), into: &state)
        harness.state = state
        harness.run(harness.state.start())
        #expect(harness.state.activeGroup == GroupID(path: "Years/1959"))
        #expect(harness.state.visible.count == 2)
        #expect(harness.state.sort == .title)
    }

    @Test func aReloadedLibraryKeepsTheGroupSelectionAndSearch() throws {
        var harness = ReaderHarness.samples()
        harness.press("/")
        harness.type("knuth")
        harness.press("Enter", "j")
        let selected = try #require(harness.state.selectedEntry?.address)
        let text = try String(contentsOf: Fixtures.samples.appendingPathComponent("library.bib"), encoding: .utf8)
            + "\n@book{knuth2026new, author = {Knuth, Donald E.}, title = {A New One}, year = 2026}\n"
        let reloaded = Library.parse([(path: Fixtures.samples.appendingPathComponent("library.bib").path, bytes: Array(text.utf8))])
        let effects = harness.state.update(.libraryReloaded(reloaded))
        #expect(effects.contains(.library(.buildSearchIndex)))
        #expect(effects.contains(.library(.computeSort(harness.state.sort))))
        #expect(harness.state.totalCount == 26)
        // The new library's index and sort arrive; the search and the selection still hold.
        _ = harness.state.update(.searchIndexReady(SearchIndex(entries: reloaded.entries)))
        _ = harness.state.update(.sortReady(harness.state.sort, rank: SortOrder.rank(reloaded.entries, by: harness.state.sort)))
        #expect(harness.state.searchText == "knuth")
        #expect(harness.state.visible.count == 4)
        #expect(harness.state.selectedEntry?.address == selected)
    }

    @Test func aRestoredLinkGroupFallsBackToAllWithAMessage() {
        // A state file written before transient groups were left out names "From link".
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        var harness = ReaderHarness(library: library, width: 120, height: 40)
        var state = AppState(library: library, paths: [], width: 120, height: 40)
        state.groups = GroupCatalog.savedGroups(of: library, synced: LinkedFileLocator.shared.isSynced(library))
        ReaderApp.restore(LibrarySession(group: BuiltInGroup.fromLink.name, selection: "turing1936computable"), into: &state)
        harness.state = state
        harness.run(harness.state.start())
        #expect(harness.state.activeGroup == .all)
        #expect(harness.state.visible.count == 25)
        #expect(harness.state.message?.text.contains("showing All") == true)
        #expect(harness.screen.contains("25 of 25") || harness.state.message != nil)
    }

    @Test func aLinkGroupIsNeverSavedAsTheGroupToComeBackTo() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.press("h", "j", "j", "j", "Enter")
        let chosen = harness.state.activeGroup
        #expect(chosen != .all)
        let link = try ReferenceLink.parse("bibread://open?refs=[goedel1931formal:5],[knuth1984texbook]")
        harness.run(harness.state.openLink(link))
        harness.press("q")
        #expect(harness.state.activeGroup == .builtIn(.fromLink))
        let saved = harness.state.sessionToSave(previous: LibrarySession(group: chosen.path))
        #expect(saved.group == chosen.path, "the group before the link stays the one to come back to")
        #expect(harness.state.sessionToSave(previous: LibrarySession(group: BuiltInGroup.fromLink.name)).group == nil)
    }

    @Test func aReloadedLibraryKeepsShowingTheLinkGroup() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        let link = try ReferenceLink.parse("bibread://open?refs=[goedel1931formal:5],[knuth1984texbook]")
        harness.run(harness.state.openLink(link))
        harness.press("q")
        let reloaded = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        harness.send(.libraryReloaded(reloaded))
        #expect(harness.state.activeGroup == .builtIn(.fromLink))
        #expect(harness.state.visible.count == 2, "not stuck working out the members of From link")
    }
}
