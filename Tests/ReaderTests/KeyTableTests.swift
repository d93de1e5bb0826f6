import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// Every key the reader handles is in the action table: no key is handled outside it, and no
/// key is bound twice where it is looked up.
@Suite("the action table holds every key")
struct KeyTableTests {
    /// Every key the terminal can send that the reader knows: the printable ASCII characters,
    /// Ctrl with a letter, the named keys and F1–F12.
    static let allKeys: [Key] = (32...126).map { Key.character(Character(UnicodeScalar(UInt8($0)))) }
        + "abcdefghijklmnopqrstuvwxyz".map { Key.control($0) }
        + [.up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .enter, .escape, .tab, .backTab, .backspace, .delete, .insert]
        + (1...12).map { Key.function($0) }

    /// What a key may change on screen and in the state (the status message aside: an unbound
    /// character says it does nothing), and the work it asks for.
    private static func fingerprint(_ state: AppState) -> String {
        [String(describing: state.screen), state.searchText, "\(state.searchFocused)", "\(state.focus)", "\(state.listCursor)",
         "\(state.groupCursor)", state.activeGroup.path, "\(state.sort) \(state.sortDescending)", "\(state.detailsScroll)",
         "\(state.expandedGroups.map(\.path).sorted())", "\(state.isQuitting)", "\(String(describing: state.bookmarkFolder))"].joined(separator: "|")
    }

    /// A state with something on screen, and whether any key answers it (the help closes on any
    /// key; deleting takes any answer but yes as no).
    struct Fixture {
        let name: String
        let state: AppState
        var anyKeyAnswers = false
    }

    private static func fixtures() throws -> [Fixture] {
        var fixtures: [Fixture] = []
        var library = ReaderHarness.samples(width: 120, height: 40)
        fixtures.append(Fixture(name: "library", state: library.state))
        var search = library
        search.press("/")
        search.type("knuth")
        fixtures.append(Fixture(name: "search bar", state: search.state))
        var help = library
        help.press("?")
        fixtures.append(Fixture(name: "help", state: help.state, anyKeyAnswers: true))
        var reload = library
        reload.press("R")
        fixtures.append(Fixture(name: "reload question", state: reload.state))
        // issue 30: q while a sync of the library's remote runs
        var syncQuit = library
        syncQuit.state.backgroundSync = BackgroundSyncSettings(remote: "lab", canDetach: true)
        syncQuit.state.syncing = (0, 0, "")
        syncQuit.press("q")
        fixtures.append(Fixture(name: "sync quit question", state: syncQuit.state))
        // keys: editing (the rating and the questions take any other key as no)
        var rating = library
        rating.press("*")
        fixtures.append(Fixture(name: "rating prompt", state: rating.state, anyKeyAnswers: true))
        var fieldName = library
        fieldName.press("e")
        fieldName.type("ti")
        fixtures.append(Fixture(name: "field prompt", state: fieldName.state))
        var fieldValue = fieldName
        fieldValue.press("Enter")
        fixtures.append(Fixture(name: "field value prompt", state: fieldValue.state))
        var undoQuestion = library
        undoQuestion.state.screen.show(.editPrompt(.undo(path: "library.bib", description: "'mark read knuth1984' of today")))
        fixtures.append(Fixture(name: "undo question", state: undoQuestion.state, anyKeyAnswers: true))
        var conflict = library
        conflict.state.screen.show(.editPrompt(.conflict(EntryConflict(
            id: 1, path: "library.bib",
            conflict: MergeConflict(kind: .field, address: "knuth1984texbook", field: "year", base: nil, mine: "1984", theirs: "1986")))))
        fixtures.append(Fixture(name: "conflict chooser", state: conflict.state, anyKeyAnswers: true))
        var openWith = library
        openWith.press("o")
        fixtures.append(Fixture(name: "open with", state: openWith.state))
        let two = Fixtures.library("""
        @article{two, title = {Two files}, file = {:\(Fixtures.samples.path)/papers/tex-tour.pdf:PDF;:\(Fixtures.samples.path)/papers/incompleteness.pdf:PDF}}
        """)
        var chooser = ReaderHarness(library: two, width: 100, height: 30)
        chooser.press("Enter")
        fixtures.append(Fixture(name: "chooser", state: chooser.state))
        var bookmarks = library
        bookmarks.press("b")
        fixtures.append(Fixture(name: "bookmarks", state: bookmarks.state))
        var folderPrompt = bookmarks
        folderPrompt.press("a")
        folderPrompt.type("Week")
        fixtures.append(Fixture(name: "bookmarks prompt", state: folderPrompt.state))
        var deleting = bookmarks
        deleting.state.screen.show(.bookmarksPrompt(.confirmDelete(id: 1)))
        fixtures.append(Fixture(name: "delete question", state: deleting.state, anyKeyAnswers: true))
        var reading = library
        reading.read("knuth1984texbook")
        try #require(reading.state.reading?.pageText != nil)
        reading.state.screen.reading?.notes[1] = "a note"
        fixtures.append(Fixture(name: "reading", state: reading.state))
        var goTo = reading
        goTo.press(":")
        goTo.type("3")
        fixtures.append(Fixture(name: "go-to prompt", state: goTo.state))
        var outline = reading
        let info = try #require(reading.state.reading?.info)
        outline.state.screen.reading?.info = DocumentInfo(pageCount: info.pageCount, title: info.title, labels: info.labels,
                                                          outline: [OutlineEntry(title: "One", level: 0, page: 1),
                                                                    OutlineEntry(title: "Two", level: 0, page: 3)])
        outline.press("c")
        try #require(outline.state.showingOutline)
        fixtures.append(Fixture(name: "contents", state: outline.state))
        var note = reading
        note.press("n")
        note.type("x")
        note.press("Left")
        fixtures.append(Fixture(name: "note editor", state: note.state))
        var noteQuestion = note
        noteQuestion.press("Esc")
        try #require(noteQuestion.state.noteEditor?.confirmingDiscard == true)
        fixtures.append(Fixture(name: "note question", state: noteQuestion.state))
        // Keywords and static groups of the selected reference (issue 28, pickers)
        var keywords = library
        keywords.press("t")
        keywords.type("ty")
        try #require(keywords.state.screen.keywordEditor != nil)
        fixtures.append(Fixture(name: "keywords prompt", state: keywords.state))
        var completing = keywords
        completing.press("Tab")
        try #require(completing.state.screen.keywordEditor?.completion != nil)
        fixtures.append(Fixture(name: "keywords prompt, completing", state: completing.state))
        var groups = library
        groups.press("+")
        try #require(groups.state.screen.groupPicker != nil)
        fixtures.append(Fixture(name: "static groups", state: groups.state))
        return fixtures
    }

    @Test func everyKeyThatDoesSomethingIsBoundInTheScopeInForce() throws {
        let keymap = Keymap()
        for fixture in try KeyTableTests.fixtures() {
            let scope = fixture.state.keyScope
            let before = KeyTableTests.fingerprint(fixture.state)
            for key in KeyTableTests.allKeys {
                var state = fixture.state
                let effects = state.update(.key(key))
                guard !effects.isEmpty || KeyTableTests.fingerprint(state) != before else { continue }
                let bound = keymap.action(for: key, in: .everywhere) ?? keymap.action(for: key, in: scope)
                let typed: Bool
                if case .character = key { typed = scope.chain.contains(.textField) } else { typed = false }
                #expect(bound != nil || typed || fixture.anyKeyAnswers,
                        "\(key) does something in \(fixture.name) (scope \(scope)) but no action of the table binds it there")
            }
        }
    }

    @Test func theFixturesCoverEveryScopeOfAnOverlayOrView() throws {
        let covered = Set(try KeyTableTests.fixtures().map(\.state.keyScope))
        // Looked up beside another scope, not on their own: moving and text fields (fallbacks),
        // background work and everywhere (before the scope in force).
        let lookedUpBeside: Set<ActionScope> = [.navigation, .textField, .listening, .transfer, .everywhere]
        for scope in ActionScope.allCases where !lookedUpBeside.contains(scope) {
            #expect(covered.contains(scope), "no fixture puts \(scope) in force")
        }
    }

    @Test func noKeyIsBoundTwiceInAScopeOrTheScopesItFallsBackTo() {
        for scope in ActionScope.allCases {
            var seen: [Key: (Action, ActionScope)] = [:]
            for link in scope.chain {
                for definition in ActionTable.definitions(in: link) {
                    for key in definition.defaultKeys {
                        #expect(seen[key] == nil,
                                "\(key) is bound to \(seen[key].map { "\($0.0) in \($0.1)" } ?? "") and to \(definition.action) in \(link), looked up from \(scope)")
                        seen[key] = (definition.action, link)
                    }
                }
            }
        }
    }

    @Test func anActionHasTheSameKeysInEveryScopeItIsIn() {
        // config.toml rebinds an action by name: its keys are one list, wherever it is.
        for action in Action.allCases {
            let lists = Set(ActionTable.definitions.filter { $0.action == action }.map { $0.defaultKeys.map(\.description) })
            #expect(lists.count == 1, "\(action) has different default keys in different scopes: \(lists)")
        }
    }

    @Test func configRebindsAnOverlaysKeys() {
        var keymap = Keymap()
        let problems = keymap.rebind(["confirm": ["C-j"], "close": ["x"], "force-quit": ["C-q"], "reload": ["F9"]])
        #expect(problems.isEmpty)
        #expect(keymap.action(for: .control("j"), in: .prompt) == .confirm)
        #expect(keymap.action(for: .enter, in: .prompt) == nil)
        #expect(keymap.action(for: .character("x"), in: .chooser) == .close)
        #expect(keymap.action(for: .control("q"), in: .everywhere) == .forceQuit)
        #expect(keymap.action(for: .function(9), in: .browse) == .reloadLibrary)
        // The text field's typing is what no action takes: x types in a prompt.
        #expect(keymap.action(for: .character("x"), in: .prompt) == nil)
    }
}
