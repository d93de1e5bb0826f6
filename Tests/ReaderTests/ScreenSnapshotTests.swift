import Testing
@testable import Reader
@testable import ReaderCore

/// The style layer of screen snapshots catches what the text cannot: a selection bar, a focus
/// highlight or an error drawn in the wrong style with the same characters.
@Suite("screen snapshots")
struct ScreenSnapshotTests {
    @Test func everyRoleAndEmphasisHasItsOwnCharacter() {
        let roles = StyleRole.allCases.map(ScreenSnapshot.symbol(for:))
        #expect(Set(roles).count == StyleRole.allCases.count)
        let emphases = [(false, false), (true, false), (false, true), (true, true)].map(ScreenSnapshot.symbol(bold:underline:))
        #expect(Set(emphases).count == 4)
        for symbol in roles + emphases { #expect(!symbol.isWhitespace && symbol != "#") }
    }

    /// Moving the focus from the list to the groups changes no character of the 80×24 list
    /// screen, only which pane's title is bold and which selection bar is strong: the text
    /// snapshot alone passes, the style layer names the rows, columns and roles that moved.
    @Test func focusMovedWithTheSameTextFailsTheSnapshot() {
        var harness = ReaderHarness.samples(width: 80, height: 24)
        harness.press("S-Tab")
        #expect(harness.state.focus == .groups)
        let screen = harness.state.render()
        // One report, for the style: the text matches its snapshot.
        #expect(ScreenSnapshot.differences(of: screen, named: "list-80x24") == ["""
        style of screen list-80x24 differs from its snapshot:
        row 0, columns 0–19: expected h (header), actual t (title)
        row 0, columns 21–79: expected t (title), actual h (header)
          row 0 text: \(screen.lines[0])
        row 1, columns 0–19: expected s (selectionUnfocused), actual S (selection)
          row 1 text: \(screen.lines[1])
        row 2, columns 21–79: expected S (selection), actual s (selectionUnfocused)
          row 2 text: \(screen.lines[2])
        row 0, columns 0–19: expected emphasis . (plain), actual emphasis B (bold)
        row 0, columns 21–79: expected emphasis B (bold), actual emphasis . (plain)
          row 0 text: \(screen.lines[0])
        """])
    }

    /// A selection bar drawn one row too low, the same characters on every row.
    @Test func selectionOnTheWrongRowFailsTheSnapshot() throws {
        var screen = ReaderHarness.samples(width: 80, height: 24).state.render()
        let wanted = screen.text
        let bar = try #require((0..<screen.width).first { screen[$0, 2].style.role == .selection })
        #expect(bar == 21)
        screen.restyle(x: bar, y: 2, width: screen.width - bar, style: .normal)
        screen.restyle(x: bar, y: 3, width: screen.width - bar, style: Style(.selection))
        #expect(screen.text == wanted)
        #expect(ScreenSnapshot.differences(of: screen, named: "list-80x24") == ["""
        style of screen list-80x24 differs from its snapshot:
        row 2, columns 21–79: expected S (selection), actual . (normal)
          row 2 text: \(screen.lines[2])
        row 3, column 21: expected . (normal), actual S (selection)
        row 3, columns 22–24: expected * (mark), actual S (selection)
        row 3, columns 25–79: expected . (normal), actual S (selection)
          row 3 text: \(screen.lines[3])
        """])
    }

    /// One cell of the status line drawn in the error style is named alone.
    @Test func oneCellInAnotherRoleIsNamed() {
        var screen = ReaderHarness.samples(width: 80, height: 24).state.render()
        screen.restyle(x: 5, y: 23, width: 1, style: Style(.error))
        #expect(ScreenSnapshot.differences(of: screen, named: "list-80x24") == ["""
        style of screen list-80x24 differs from its snapshot:
        row 23, column 5: expected = (status), actual E (error)
          row 23 text: \(screen.lines[23])
        """])
    }

    /// The search bar's cursor is part of the style layer.
    @Test func aLostCursorIsNamed() {
        var harness = ReaderHarness.samples(width: 80, height: 24)
        harness.press("/")
        harness.type("author:knuth -web")
        var screen = harness.state.render()
        screen.cursor = nil
        #expect(ScreenSnapshot.differences(of: screen, named: "search-80x24") == ["""
        style of screen search-80x24 differs from its snapshot:
        expected cursor: column 19, row 22, actual cursor: hidden
        """])
    }
}
