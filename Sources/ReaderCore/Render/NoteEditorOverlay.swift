/// The page-note editor: a box over the page with the note's text and a cursor.
enum NoteEditorOverlay {
    /// `pageName` names the page as the status line does (`p. xii (12 of 300)`).
    static func draw(_ editor: NoteEditor, pageName: String, into screen: inout ScreenBuffer) {
        let boxWidth = min(screen.width, 72)
        let boxHeight = min(screen.height - 2, 14)
        let footer = editor.confirmingQuit ? "C-c again quits · C-s saves and quits · Esc back to the note"
            : editor.confirmingDiscard ? "Esc again discards · C-s saves · Enter back to the note"
            : "C-s save · Esc cancel · Enter new line"
        let inner = Box.draw(title: "Note on \(pageName) of \(editor.citeKey)", width: boxWidth, height: boxHeight, footer: footer,
                             into: &screen)
        guard inner.width > 0, inner.height > 0 else { return }
        // Lay the text out in rows of the box's width, tracking where the cursor falls.
        var rows: [String] = [""]
        var cursorRow = 0
        var cursorColumn = 0
        var column = 0
        for (index, character) in editor.field.characters.enumerated() {
            if index == editor.field.cursor {
                cursorRow = rows.count - 1
                cursorColumn = column
            }
            if character == "\n" {
                rows.append("")
                column = 0
                continue
            }
            let characterWidth = DisplayWidth.of(character)
            if column + characterWidth > inner.width {
                rows.append("")
                column = 0
            }
            rows[rows.count - 1].append(character)
            column += characterWidth
        }
        if editor.field.cursor >= editor.field.characters.count {
            if column >= inner.width {
                rows.append("")
                column = 0
            }
            cursorRow = rows.count - 1
            cursorColumn = column
        }
        let top = max(0, cursorRow - inner.height + 1)
        for row in 0..<inner.height where top + row < rows.count {
            screen.write(rows[top + row], x: inner.x, y: inner.y + row, style: Style(.overlay), limit: inner.width)
        }
        screen.cursor = (x: inner.x + cursorColumn, y: inner.y + cursorRow - top)
    }
}
