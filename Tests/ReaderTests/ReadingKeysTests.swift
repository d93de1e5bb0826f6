import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import ReadingList
import Testing
@testable import Reader
@testable import ReaderCore

/// Keys that must act the same wherever they are pressed (Ctrl-C), questions that take only
/// their answers, and the table of contents' current entry.
@Suite("reading view keys and questions")
struct ReadingKeysTests {
    // MARK: - The table of contents

    /// The reader on the TeXbook sample (5 pages) with `outline` as its table of contents, at `page`.
    private func reading(outline: [OutlineEntry], at page: Int) throws -> ReaderHarness {
        var harness = ReaderHarness.samples(width: 100, height: 30)
        harness.read("knuth1984texbook")
        let info = try #require(harness.state.reading?.info)
        harness.state.screen.reading?.info = DocumentInfo(pageCount: info.pageCount, title: info.title, labels: info.labels, outline: outline)
        harness.state.screen.reading?.page = page
        return harness
    }

    @Test func theContentsHighlightTheSectionHoldingThePageWhateverTheOutlineOrder() throws {
        // Entries not in page order: a list of figures at the end points back to p. 2.
        let outline = [OutlineEntry(title: "Preface", level: 0, page: 1), OutlineEntry(title: "Chapter 1", level: 0, page: 3),
                       OutlineEntry(title: "Chapter 2", level: 0, page: 4), OutlineEntry(title: "Appendix", level: 0, page: 5),
                       OutlineEntry(title: "List of figures", level: 0, page: 2), OutlineEntry(title: "Nowhere", level: 0, page: nil)]
        for (page, expected) in [(1, "Preface"), (2, "List of figures"), (3, "Chapter 1"), (4, "Chapter 2"), (5, "Appendix")] {
            var harness = try reading(outline: outline, at: page)
            harness.press("c")
            let selected = try #require(harness.state.outlineCursor?.selected)
            #expect(outline[selected].title == expected, "on p. \(page)")
        }
    }

    @Test func aTieGoesToTheLastEntryOfThatPageInOutlineOrder() throws {
        let outline = [OutlineEntry(title: "Part I", level: 0, page: 3), OutlineEntry(title: "Chapter 1", level: 1, page: 3),
                       OutlineEntry(title: "Index", level: 0, page: 5), OutlineEntry(title: "Front", level: 0, page: 1)]
        var harness = try reading(outline: outline, at: 4)
        harness.press("c")
        #expect(harness.state.outlineCursor?.selected == 1)
    }

    // MARK: - Ctrl-C quits from anywhere

    /// Presses Ctrl-C and returns the effects it asked for.
    private func controlC(_ harness: inout ReaderHarness) -> [Effect] {
        harness.state.update(.key(.control("c")))
    }

    @Test func controlCQuitsFromTheReadingViewAndEveryOverlayInIt() throws {
        let setups: [(String, (inout ReaderHarness) -> Void)] = [
            ("the page", { _ in }),
            ("the search prompt", { $0.press("/"); $0.type("abc") }),
            ("the go-to prompt", { $0.press(":") }),
            ("the table of contents", { $0.press("c") }),
            ("the help overlay", { $0.press("?") }),
            ("the open-with menu", { $0.press("o") }),
            ("an unchanged note editor", { $0.press("n") }),
        ]
        for (name, setup) in setups {
            var harness = ReaderHarness.samples(width: 120, height: 30)
            harness.read("knuth1984texbook")
            setup(&harness)
            let effects = controlC(&harness)
            #expect(effects.contains(.app(.quit)), "Ctrl-C in \(name): \(effects)")
            #expect(effects.contains(.app(.saveSession)), "Ctrl-C in \(name)")
            #expect(harness.state.isQuitting, "Ctrl-C in \(name)")
        }
    }

    @Test func controlCQuitsFromTheBookmarksViewAndItsPrompts() throws {
        let setups: [(String, (inout ReaderHarness) -> Void)] = [
            ("the bookmarks view", { $0.press("b") }),
            ("the new-folder prompt", { $0.press("b", "a"); $0.type("Fol") }),
            ("the import prompt", { $0.press("b", "i") }),
            ("the library list", { _ in }),
            ("the search bar", { $0.press("/"); $0.type("knuth") }),
        ]
        for (name, setup) in setups {
            var harness = ReaderHarness.samples(width: 120, height: 30)
            setup(&harness)
            let effects = controlC(&harness)
            #expect(effects.contains(.app(.quit)), "Ctrl-C in \(name): \(effects)")
        }
    }

    @Test func controlCInANoteWithChangesAsksThenQuits() throws {
        var harness = ReaderHarness.samples(width: 120, height: 30)
        harness.read("knuth1984texbook")
        harness.press("n")
        harness.type("unsaved thought")
        var effects = controlC(&harness)
        #expect(!effects.contains(.app(.quit)), "a note with changes is not dropped without asking")
        #expect(harness.state.message?.text.contains("C-c again quits") == true, "\(String(describing: harness.state.message))")
        // While asked, typing does not go into the note.
        harness.type("xyz")
        #expect(harness.state.noteEditor?.string == "unsaved thought")
        effects = controlC(&harness)
        #expect(effects.contains(.app(.quit)))
    }

    // MARK: - The note editor's question

    @Test func whileTheNoteEditorAsksTypedKeysDoNotGoIntoTheNote() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        var harness = ReaderHarness.samples(width: 120, height: 30, store: store)
        harness.read("knuth1984texbook")
        harness.press("n")
        harness.type("first idea")
        harness.press("Esc")
        #expect(harness.state.noteEditor?.confirmingDiscard == true)
        harness.type("typed while asked")
        harness.press("Backspace", "Tab", "Left")
        #expect(harness.state.noteEditor?.string == "first idea")
        #expect(harness.state.noteEditor?.confirmingDiscard == true, "the question stays until it is answered")
        #expect(harness.screen.contains("Esc again discards"))
        // Enter answers "keep editing": the question goes, and typing goes into the note again.
        harness.press("Enter")
        #expect(harness.state.noteEditor?.confirmingDiscard == false)
        harness.type("!")
        #expect(harness.state.noteEditor?.string == "first idea!")
        // C-s answers "save".
        harness.press("Esc", "C-s")
        #expect(harness.state.noteEditor == nil)
        #expect(try store.note(citeKey: "knuth1984texbook", page: 1) == "first idea!")
    }
}
