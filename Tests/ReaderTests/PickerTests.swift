import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// `t`, the keywords prompt, and `+`, the static groups checklist, on the selected reference:
/// what they show, the edits they ask for (`requestEdit` writes them: the keys branch), and
/// what they refuse. On the sample library (BibDesk's conventions, static groups) and real
/// JabRef and Better BibTeX files of the corpora.
@Suite("keywords prompt and static groups checklist")
struct PickerTests {
    static var jabRef: URL { Fixtures.corpus("bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib") }
    static var betterBibTeX: URL { Fixtures.corpus("bib/zotero-bbt/export_Better_BibTeX_does_not_export_collections__901.bibtex") }

    /// The sample library with `key` selected (found by a search).
    static func selecting(_ key: String, width: Int = 120, height: Int = 40) -> ReaderHarness {
        var harness = ReaderHarness.samplesCopy(width: width, height: height)
        harness.press("/")
        harness.type("key:\(key)")
        harness.press("Enter")
        return harness
    }

    // MARK: - Keywords

    @Test func tShowsTheReferencesKeywordsAndTurnsTheWordsTypedIntoEdits() throws {
        var harness = Self.selecting("knuth1984texbook")
        harness.press("t")
        #expect(harness.screen.contains("Keywords of knuth1984texbook"))
        #expect(harness.screen.contains("Has: typesetting; TeX"))
        harness.type("graphs, -tex \"line breaking\"")
        let editor = try #require(harness.state.screen.keywordEditor)
        // Removals first: `-Graph graph` changes a keyword's case.
        let edits: [EntryEdit] = [.removeKeywords(["tex"]), .addKeywords(["graphs", "line breaking"])]
        #expect(editor.outcome() == .edits(edits))
        #expect(editor.command(for: edits) == "tag -tex +graphs +line breaking")
        let effects = harness.state.update(.key(.enter))
        let writes = effects.compactMap { effect -> EditRequest? in
            if case .editing(.write(let request)) = effect { return request }
            return nil
        }
        #expect(writes.map(\.edits) == [edits], "\(effects)")
        #expect(writes.map(\.command) == ["tag -tex +graphs +line breaking knuth1984texbook"], "the key is added by requestEdit")
        #expect(harness.state.screen.keywordEditor == nil, "Enter applies and closes")
    }

    @Test func whatCannotBeAppliedIsSaidInThePromptAndNothingIsSent() throws {
        var harness = Self.selecting("knuth1984texbook")
        for (typed, said) in [("-graphs", "knuth1984texbook has no keyword “graphs”"),
                              ("Typesetting", "knuth1984texbook already has “Typesetting”"),
                              ("foo -foo", "“foo” is both added and removed")] {
            harness.press("t")
            harness.type(typed)
            let effects = harness.state.update(.key(.enter))
            #expect(effects.isEmpty)
            #expect(harness.state.screen.keywordEditor?.problem?.contains(said) == true, "\(typed)")
            #expect(harness.screen.contains(said), "\(typed): the prompt says so")
            harness.press("Esc")
            #expect(harness.state.screen.keywordEditor == nil, "Esc closes, changing nothing")
        }
        // A case change is no problem: removed, then added.
        harness.press("t")
        harness.type("-tex TeX2 -TeX")
        #expect(harness.state.screen.keywordEditor?.outcome() == .edits([.removeKeywords(["tex"]), .addKeywords(["TeX2"])]))
        harness.press("Esc")
        // Nothing typed: Enter just closes.
        harness.press("t", "Enter")
        #expect(harness.state.screen.keywordEditor == nil)
    }

    @Test func tabCompletesMostUsedFirstAndCyclesBothWays() throws {
        var harness = Self.selecting("knuth1984texbook")
        harness.press("t")
        // Nothing typed: the library's most used keywords it does not have (typesetting and
        // TeX it has), ties in natural order: algorithms and graphs are on 6 references each.
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "algorithms")
        #expect(harness.screen.contains("  graphs"), "the candidates are listed under the field")
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "graphs")
        harness.press("S-Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "algorithms")
        // A space ends the word; the next completion leaves out the words typed.
        harness.type(" ")
        #expect(harness.state.screen.keywordEditor?.completion == nil)
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "algorithms graphs")
        harness.press("C-w")
        // A prefix, any case; a keyword with a space comes quoted.
        harness.type("LIT")
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "algorithms \"literate programming\"")
        #expect(harness.state.screen.keywordEditor?.outcome() == .edits([.addKeywords(["algorithms", "literate programming"])]))
        // -word completes from the reference's own keywords.
        harness.type(" -t")
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "algorithms \"literate programming\" -typesetting")
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.field.text == "algorithms \"literate programming\" -TeX")
        // Nothing to complete: said in the prompt.
        harness.type(" zzz")
        harness.press("Tab")
        #expect(harness.screen.contains("No keyword in the library starts with “zzz”"))
    }

    @Test func theVocabularyIsCollectedOnceInTheBackgroundNotPerKey() throws {
        var harness = Self.selecting("knuth1984texbook")
        let vocabulary = try #require(harness.state.keywordVocabulary, "collected by the work started with the library")
        #expect(vocabulary.words.first == "typesetting")
        harness.press("t")
        for key in [Key.character("a"), .tab, .tab, .backTab, .backspace] {
            #expect(harness.state.update(.key(key)).isEmpty, "\(key) asks for no work")
        }
        // Before it arrives, Tab says so.
        harness.state.keywordVocabulary = nil
        harness.press("Tab")
        #expect(harness.screen.contains("Still collecting the library's keywords"))
        // Reading the library again collects it again.
        #expect(harness.state.reload(Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib")))
            .contains(.library(.collectKeywords)))
    }

    @Test func aKeywordAddedHereIsCompletedAtOnce() throws {
        var harness = Self.selecting("knuth1984texbook")
        harness.press("t")
        harness.type("quantum-typesetting")
        harness.press("Enter")
        #expect(harness.state.message?.text.hasPrefix("Saved: knuth1984texbook") == true, "\(String(describing: harness.state.message))")
        // On another reference (the one that has it is not offered what it has).
        harness.press("/", "C-u")
        harness.type("key:shannon1948mathematical")
        harness.press("Enter", "t")
        harness.type("quantum")
        harness.press("Tab")
        #expect(harness.state.screen.keywordEditor?.completion?.candidates == ["quantum-typesetting"])
    }

    // MARK: - Static groups

    @Test func plusTicksTheGroupsTheReferenceIsInAndAppliesTheDifferences() throws {
        var harness = Self.selecting("knuth1984texbook")
        harness.press("+")
        #expect(harness.screen.contains("Static groups of knuth1984texbook (library.bib)"))
        #expect(harness.screen.contains("[ ]  To read"))
        #expect(harness.screen.contains("[x]  Typesetting course"))
        harness.press("Space")
        #expect(harness.screen.contains("[x]* To read"), "a changed tick is marked")
        harness.press("j", "Space")
        #expect(harness.screen.contains("[ ]* Typesetting course"))
        let picker = try #require(harness.state.screen.groupPicker)
        let changes = picker.changes()
        #expect(changes.map(\.edit) == [.addToGroup("To read"), .removeFromGroup("Typesetting course")])
        // As `bibread group add|remove` writes them in the file's history; one edit per group.
        #expect(changes.map(\.command) == ["group add To read", "group remove Typesetting course"])
        // Toggled back: no change.
        harness.press("Space")
        #expect(harness.state.screen.groupPicker?.changes().map(\.edit) == [.addToGroup("To read")])
        harness.press("Enter")
        #expect(harness.state.screen.groupPicker == nil)
        harness.press("+", "Enter")
        #expect(harness.state.message?.text == "No group changed")
        harness.press("+", "q")
        #expect(harness.state.screen.groupPicker == nil, "q (and Esc) close, changing nothing")
    }

    @Test func plusInTheReadingViewFilesTheReferenceRead() throws {
        var harness = ReaderHarness.samples()
        harness.read("knuth1984texbook")
        try #require(harness.state.reading != nil)
        harness.press("+")
        let picker = try #require(harness.state.screen.groupPicker)
        #expect(picker.address == EntryAddress("knuth1984texbook"))
        #expect(picker.ticked == [false, true])
        harness.press("Esc")
        #expect(harness.state.reading != nil, "Esc closes the checklist, not the PDF")
    }

    @Test func jabRefExplicitGroupsAreListedAsATree() throws {
        let library = Fixtures.library(at: Self.jabRef)
        var harness = ReaderHarness(library: library, paths: [Self.jabRef.path], width: 120, height: 40)
        let member = try #require(library.entries.first { $0.raw("groups")?.contains("jfd1:1") == true })
        harness.press("/")
        harness.type("key:\(member.key)")
        harness.press("Enter", "+")
        #expect(harness.screen.contains("[ ]  Markings"))
        #expect(harness.screen.contains("[x]    jfd1:1"))
        #expect(harness.screen.contains("[x]    Group1a"))
        #expect(harness.state.screen.groupPicker?.membership.dialect == .jabRef)
    }

    @Test func aLibraryWithoutStaticGroupsSaysHowToMakeOne() throws {
        var harness = ReaderHarness(library: Fixtures.library("@misc{lone, title = {Alone}}"), width: 120, height: 40)
        harness.press("+")
        #expect(harness.screen.contains("has no static groups to file references into"))
        #expect(harness.screen.contains("In BibDesk: a new static group"))
        #expect(harness.state.screen.groupPicker?.changes().isEmpty == true)
        harness.press("Esc")
        #expect(harness.state.screen.groupPicker == nil)
    }

    @Test func aZoteroExportIsSaidToBeReadOnlyInsteadOfOpening() throws {
        let library = Fixtures.library(at: Self.betterBibTeX)
        var harness = ReaderHarness(library: library, paths: [Self.betterBibTeX.path], width: 120, height: 40)
        for key in ["t", "+"] {
            harness.press(key)
            #expect(harness.state.screen.top == nil, "\(key) opens nothing")
            #expect(harness.state.message?.isError == true)
            #expect(harness.state.message?.text.contains("is a Zotero export") == true)
            #expect(harness.state.message?.text.contains("change the reference in Zotero instead") == true)
        }
    }

    /// Keywords and group names come from the file: their control characters never reach the
    /// terminal.
    @Test func keywordsAndGroupNamesFromTheFileAreCleaned() throws {
        let text = """
        @misc{evil, keywords = {\(HostileText.journal), plain}}
        @comment{BibDesk Static Groups{
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><dict><key>group name</key><string>Bad\u{9B}2J\u{7F}name</string><key>keys</key><string>evil</string></dict></array></plist>
        }}
        """
        var harness = ReaderHarness(library: Fixtures.library(text), width: 120, height: 40)
        harness.press("t")
        #expect(harness.screen.contains("Has: \(HostileText.cleanedJournal); plain"))
        harness.type("-")
        harness.press("Tab")
        #expect(harness.screen.contains("› -\(HostileText.cleanedJournal)"))
        #expect(harness.screen.contains("  \(HostileText.cleanedJournal)"), "the candidates too")
        #expect(!harness.screen.contains("\u{1B}"))
        harness.press("Esc", "+")
        #expect(harness.screen.contains("[x]  Bad\(HostileText.mark)2J\(HostileText.mark)name"))
        #expect(!harness.screen.contains("\u{9B}") && !harness.screen.contains("\u{7F}"))
    }

    /// The edit goes to the selected reference: while a picker is open a click selects
    /// nothing, and a reference gone from under it (the library read again) gets no edit.
    @Test func theReferenceAPickerChangesStaysTheOneItWasOpenedFor() throws {
        var harness = ReaderHarness.samples()
        let first = try #require(harness.state.selectedEntry?.entryAddress)
        for key in ["t", "+"] {
            harness.press(key)
            _ = harness.state.update(.mouse(MouseEvent(.click, x: 40, y: 4)))
            #expect(harness.state.selectedEntry?.entryAddress == first, "\(key): a click under the overlay selects nothing")
            #expect(harness.state.screen.top != nil)
            harness.press("Esc")
        }
        harness.press("t")
        harness.type("newword")
        harness.state.listCursor.selected += 1
        #expect(harness.state.update(.key(.enter)).isEmpty)
        #expect(harness.state.message?.text == "\(first) is no longer selected (the library was read again); nothing was changed")
        harness.state.listCursor.selected -= 1
        harness.press("+", "Space")
        harness.state.listCursor.selected += 1
        #expect(harness.state.update(.key(.enter)).isEmpty)
        #expect(harness.state.message?.text.contains("no longer selected") == true)
    }

    @Test func thePickersKeysAreRebindable() throws {
        var keymap = Keymap()
        let problems = keymap.rebind(["keywords": ["K"], "static-groups": ["F7"], "complete": ["C-t"], "toggle-group": ["x"]])
        #expect(problems.isEmpty)
        var harness = ReaderHarness(library: Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib")),
                                    width: 120, height: 40, keymap: keymap)
        harness.press("t")
        #expect(harness.state.screen.keywordEditor == nil, "t no longer opens the prompt")
        harness.press("K")
        harness.type("ty")
        harness.press("C-t")
        #expect(harness.state.screen.keywordEditor?.field.text == "typesetting")
        #expect(harness.screen.contains("C-t complete"), "the prompt names the keys bound")
        harness.press("Esc", "F7", "x")
        #expect(harness.state.screen.groupPicker?.changes().count == 1)
        #expect(harness.screen.contains("x tick"))
    }

    // MARK: - Snapshots

    @Test(arguments: [(120, 40), (40, 12)])
    func snapshots(width: Int, height: Int) throws {
        var keywords = Self.selecting("knuth1984texbook", width: width, height: height)
        keywords.press("t")
        keywords.type("-tex l")
        keywords.press("Tab")
        try ScreenSnapshot.check(keywords, named: "keywords-\(width)x\(height)")
        var groups = Self.selecting("knuth1984texbook", width: width, height: height)
        groups.press("+", "Space")
        try ScreenSnapshot.check(groups, named: "static-groups-\(width)x\(height)")
        var none = ReaderHarness(library: Fixtures.library("@misc{lone, title = {Alone}}"), width: width, height: height)
        none.press("+")
        try ScreenSnapshot.check(none, named: "no-static-groups-\(width)x\(height)")
    }
}
