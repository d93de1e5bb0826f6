import BibModel

/// The keywords prompt: the reference's keywords, the field, what is wrong with it (or how to
/// type), and Tab's candidates under the field, the one in the field highlighted.
enum KeywordEditorOverlay {
    static func draw(_ editor: KeywordEditor, state: AppState, into screen: inout ScreenBuffer) {
        let key = { (action: Action) in BookmarksView.key(action, state) }
        let footer = "\(key(.confirm)) apply · \(key(.complete)) complete · \(key(.cancel)) cancel"
        let candidates = editor.completion?.candidates.count ?? 0
        let boxWidth = min(screen.width, 72)
        // What is wrong (up to two lines), else how to type.
        let note = editor.problem.map { DisplayWidth.wrap(TerminalText.cleanedLine($0), to: max(1, boxWidth - 4)).prefix(2).map { $0 } }
            ?? ["word adds · -word removes · \"two words\" quoted · Tab completes"]
        let inner = Box.draw(title: "Keywords of \(TerminalText.cleanedLine(editor.address.text))", width: boxWidth,
                             height: 4 + note.count + min(candidates, 8), footer: footer, into: &screen)
        guard inner.width > 2, inner.height > 0 else { return }
        let has = editor.current.isEmpty ? "No keywords yet"
            : "Has: " + editor.current.map { TerminalText.cleanedLine($0) }.joined(separator: "; ")
        screen.write(DisplayWidth.truncate(has, to: inner.width), x: inner.x, y: inner.y, style: Style(.overlay))
        guard inner.height > 1 else { return }
        // The field: its end, with the cursor, in view.
        let fieldWidth = inner.width - 2
        let shown = tail(of: TerminalText.cleanedLine(editor.field.text), width: fieldWidth - 1)
        screen.write("› ", x: inner.x, y: inner.y + 1, style: Style(.overlay, bold: true))
        let written = screen.write(shown, x: inner.x + 2, y: inner.y + 1, style: Style(.overlay), limit: fieldWidth)
        screen.cursor = (x: inner.x + 2 + written, y: inner.y + 1)
        for (row, line) in note.enumerated() where 2 + row < inner.height {
            screen.write(DisplayWidth.truncate(line, to: inner.width), x: inner.x, y: inner.y + 2 + row,
                         style: editor.problem == nil ? Style(.dim) : Style(.error))
        }
        let listTop = 2 + note.count
        guard let completion = editor.completion, inner.height > listTop else { return }
        drawCandidates(completion, in: Rect(x: inner.x, y: inner.y + listTop, width: inner.width, height: inner.height - listTop),
                       into: &screen)
    }

    /// The candidates in a window that keeps the one in the field in view; a last line says how
    /// many more there are when they do not all fit.
    private static func drawCandidates(_ completion: KeywordEditor.Completion, in rect: Rect, into screen: inout ScreenBuffer) {
        let count = completion.candidates.count
        let rows = count > rect.height ? max(1, rect.height - 1) : count
        let top = min(max(0, completion.index - rows + 1), max(0, count - rows))
        for row in 0..<rows where top + row < count {
            let index = top + row
            let style = index == completion.index ? Style(.selection) : Style(.overlay)
            let line = TerminalText.cleanedLine(completion.candidates[index])
            screen.fill(x: rect.x, y: rect.y + row, width: rect.width, height: 1, style: style)
            screen.write(DisplayWidth.truncate("  " + line, to: rect.width), x: rect.x, y: rect.y + row, style: style)
        }
        if rows < count, rect.height > rows {
            let more = "  \(completion.index + 1) of \(count)"
            screen.write(DisplayWidth.truncate(more, to: rect.width), x: rect.x, y: rect.y + rows, style: Style(.dim))
        }
    }

    /// The end of `text` that fits in `width` columns.
    static func tail(of text: String, width: Int) -> String {
        var shown: [Character] = []
        var used = 0
        for character in text.reversed() {
            let columns = DisplayWidth.of(character)
            guard used + columns <= width else { break }
            shown.append(character)
            used += columns
        }
        return String(shown.reversed())
    }
}
