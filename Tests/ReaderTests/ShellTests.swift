import BibreadServices
import BibreadTestSupport
import BibreadValues
import DiskIO
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

@Suite("keys and config")
struct KeymapAndConfigTests {
    @Test(arguments: [("j", Key.character("j")), ("Down", .down), ("PgDn", .pageDown), ("C-d", .control("d")),
                      ("S-Tab", .backTab), ("Space", .character(" ")), ("F1", .function(1)), ("Esc", .escape)])
    func keyNamesRoundTrip(name: String, key: Key) {
        #expect(Key(name: name) == key)
        #expect(Key(name: key.description) == key)
    }

    @Test func unknownKeyNamesAreRejected() {
        #expect(Key(name: "Hyper-x") == nil)
        #expect(Key(name: "F99") == nil)
        #expect(Key(name: "") == nil)
    }

    @Test func everyActionHasHelpAndADefaultKey() {
        for action in Action.allCases {
            let definition = ActionTable.definition(of: action)
            #expect(definition != nil, "\(action) is missing from the table")
            #expect(definition?.help.isEmpty == false)
            #expect(definition?.defaultKeys.isEmpty == false)
        }
    }

    @Test func noKeyIsBoundTwiceInOneView() {
        for scope in [ActionScope.browse, .reading] {
            var seen: [Key: Action] = [:]
            for definition in ActionTable.definitions where definition.scope == scope || definition.scope == .navigation {
                for key in definition.defaultKeys {
                    #expect(seen[key] == nil, "\(key) is bound to both \(seen[key].map { "\($0)" } ?? "") and \(definition.action) in \(scope)")
                    seen[key] = definition.action
                }
            }
        }
    }

    @Test func rebindingChangesTheKeyMapAndTheHelp() {
        var keymap = Keymap()
        let problems = keymap.rebind(["move-down": ["n", "Down"], "fly": ["x"], "quit": ["Q", "Nope-key"]])
        #expect(keymap.action(for: .character("n"), in: .browse) == .moveDown)
        #expect(keymap.action(for: .character("j"), in: .browse) == nil)
        #expect(keymap.action(for: .character("Q"), in: .browse) == .quit)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("unknown action 'fly'") })
        #expect(problems.contains { $0.contains("unknown key 'Nope-key'") })
        let state = AppState(library: nil, paths: [], width: 100, height: 60, keymap: keymap)
        let help = HelpOverlay.lines(state, width: 96).map(\.0).joined(separator: "\n")
        #expect(help.contains("n Down"))
        #expect(help.contains("Move down"))
    }

    @Test func configReadsLibraryColorAndKeys() {
        let config = Config.parse("""
        library = ["~/papers/main.bib", "extra.bib"]
        color = false
        [keys]
        quit = "Q"
        move-down = ["j", "n"]
        """, path: "/home/u/.config/bibread/config.toml", home: "/home/u")
        #expect(config.problems.isEmpty)
        #expect(config.libraries == ["/home/u/papers/main.bib", "/home/u/.config/bibread/extra.bib"])
        #expect(config.color == false)
        #expect(config.keys["quit"] == ["Q"])
        #expect(config.keys["move-down"] == ["j", "n"])
    }

    @Test func configErrorsSayFileLineAndColumn() {
        let config = Config.parse("library = \"a.bib\"\ncolor = maybe\n", path: "/c/config.toml", home: nil)
        #expect(config.problems.count == 1)
        #expect(config.problems.first?.hasPrefix("/c/config.toml:2:") == true)
        let unknown = Config.parse("colour = true\n", path: "/c/config.toml", home: nil)
        #expect(unknown.problems.first?.contains("unknown setting 'colour'") == true)
    }

    @Test func directoriesFollowXDG() {
        let directories = Directories(environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/s"])
        #expect(directories.state.path == "/s/bibread")
        #expect(directories.config.path == "/home/u/.config/bibread")
        // A relative XDG value is invalid by the spec and ignored.
        #expect(Directories(environment: ["HOME": "/h", "XDG_STATE_HOME": "rel"]).state.path == "/h/.local/state/bibread")
    }
}

@Suite("session store")
struct SessionStoreTests {
    @Test func savesAndRestoresPerLibrary() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SessionStore(directory: folder.appendingPathComponent("bibread"))
        #expect(store.lastLibrary() == nil)
        try store.save(LibrarySession(group: "Classics", selection: "turing1936computable", sort: "year", descending: true), for: ["/a.bib"])
        try store.save(LibrarySession(group: "All"), for: ["/b.bib", "/c.bib"])
        #expect(store.lastLibrary() == ["/b.bib", "/c.bib"])
        #expect(store.session(for: ["/a.bib"]).group == "Classics")
        #expect(store.session(for: ["/a.bib"]).sort == "year")
        #expect(store.session(for: ["/b.bib", "/c.bib"]).group == "All")
        // Nothing but the state file is left behind (no temporary files).
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("bibread").path)
        #expect(names == ["state.json"])
    }

    @Test func aDamagedStateFileIsIgnored() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("state.json"))
        let store = SessionStore(directory: folder)
        #expect(store.session(for: ["/a.bib"]) == LibrarySession())
        try store.save(LibrarySession(group: "Graphs"), for: ["/a.bib"])
        #expect(store.session(for: ["/a.bib"]).group == "Graphs")
    }

    @Test func writingIntoAnUnwritableFolderFailsWithTheReason() {
        #expect(throws: Error.self) {
            try AtomicFile.write(Data("x".utf8), to: URL(fileURLWithPath: "/proc/bibread-cannot/state.json"))
        }
    }
}

@Suite("screen buffer")
struct ScreenBufferTests {
    @Test func wideCharactersTakeTwoCellsAndAreNeverSplit() {
        var buffer = ScreenBuffer(width: 5, height: 1)
        let written = buffer.write("日本語", x: 0, y: 0)
        #expect(written == 5)
        #expect(buffer.lines == ["日本"])
        #expect(buffer[1, 0].isContinuation)
        // Overwriting the second half of a wide character blanks its first half.
        buffer.write("x", x: 1, y: 0)
        #expect(buffer.lines == [" x本"])
    }

    @Test func combiningMarksStayWithTheirLetter() {
        var buffer = ScreenBuffer(width: 10, height: 1)
        #expect(buffer.write("Cafe\u{301}!", x: 0, y: 0) == 5)
        #expect(buffer[3, 0].text == "e\u{301}")
    }

    /// White space controls become a space, the others `�` (as `bibread show` prints them:
    /// issue 26, item 7), each one column wide.
    @Test func controlCharactersBecomeSpacesOrMarks() {
        var buffer = ScreenBuffer(width: 12, height: 1)
        #expect(buffer.write("a\tb\u{1B}c\r\nd\u{7F}\u{9B}e", x: 0, y: 0) == 10)
        #expect(buffer.lines == ["a b\u{FFFD}c d\u{FFFD}\u{FFFD}e"])
        #expect(DisplayWidth.of("a\tb\u{1B}c\r\nd\u{7F}\u{9B}e") == 10)
    }

    @Test func onlyChangedCellsAreReported() {
        var first = ScreenBuffer(width: 4, height: 2)
        first.write("abcd", x: 0, y: 0)
        var second = first
        second.write("X", x: 2, y: 1)
        #expect(second.changedCells(since: first) == [6])
        #expect(second.changedCells(since: nil).count == 8)
        #expect(second.changedCells(since: ScreenBuffer(width: 3, height: 2)).count == 8)
    }
}

@Suite("reading text")
struct ReadingTextTests {
    /// The text comes reflowable from `PDFDocument.reflowText` (a paragraph per line, blank
    /// lines between blocks): each line is wrapped, lines are never joined.
    @Test func eachLineIsWrappedAndBlocksAreSetApart() {
        let text = "The ﬁrst paragraph goes on here.\n\nSecond one.\n> x <- 1\n> y"
        #expect(ReadingText.paragraphs(of: text) == ["The first paragraph goes on here.", "Second one.\n> x <- 1\n> y"])
        #expect(ReadingText.lines(of: text, width: 12) == ["The first", "paragraph", "goes on", "here.", "", "Second one.", "> x <- 1", "> y"])
    }

    /// A PDF's text can hold control characters (R-exts.pdf has a backspace on a line of its
    /// own): `bibread read` printed them to the terminal, and the reader showed an empty line
    /// between two blank ones.
    @Test func controlCharactersBecomeSpaces() {
        let text = "For example,\n\n\u{8}\n\n// X_main.cpp:\u{1B}[31m\u{7F}\u{9B}x"
        #expect(ReadingText.lines(of: text, width: 40) == ["For example,", "", "// X_main.cpp: [31m  x"])
    }

    @Test func codeKeepsItsIndentationAndSpacesWhenItFits() {
        let text = "if x:\n    y  = 1   # set y\n    z = a_rather_long_name + another_long_name"
        #expect(ReadingText.lines(of: text, width: 24) == [
            "if x:", "    y  = 1   # set y", "    z =", "    a_rather_long_name +", "    another_long_name",
        ])
    }

    @Test func aLeaderIsShortenedToFitTheWindow() {
        let line = "1.4 R and the window system. . . . . . . . . . . . . . . . . . . . 3"
        #expect(ReadingText.lines(of: line, width: 40) == ["1.4 R and the window system. . . . . . 3"])
        #expect(ReadingText.lines(of: "Preface ............................ 12", width: 20) == ["Preface ......... 12"])
        // Too narrow for three dots: wrapped as any line.
        #expect(ReadingText.lines(of: "Preface . . . . . . 1", width: 10) == ["Preface .", ". . . . .", "1"])
    }
}
