/// The reading view's size, and what its update and render work out from it.
struct ReadingGeometry {
    let width: Int
    let height: Int

    /// Rows of page text on screen (between the title bar and the prompt line).
    var rows: Int { max(1, height - 3) }

    /// The width of the note column.
    var notePanelWidth: Int { min(44, max(28, width / 3)) }

    /// Whether the page's note shows in a column beside the text (when the window is wide).
    func showsNotePanel(_ view: ReadingState) -> Bool { view.pageNote != nil && width >= 90 }

    /// The columns reflowed text takes: the window, capped so that lines stay readable.
    func textWidth(_ view: ReadingState) -> Int {
        let full = max(10, min(width - 4, 100))
        guard showsNotePanel(view) else { return full }
        return max(40, min(width - 5 - notePanelWidth, 100))
    }

    /// The lines of the page shown, as they are drawn.
    func lines(_ view: ReadingState) -> [String] {
        guard let text = view.pageText else { return [] }
        return ReadingText.shownLines(of: text, mode: view.mode, width: textWidth(view))
    }
}
