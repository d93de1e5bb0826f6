import BibModel

/// The static groups checklist: one row per group, `[x]` where the reference is to be a member,
/// a `*` where that differs from now; or, for a file without static groups, how to make one.
enum GroupPickerOverlay {
    /// The most rows the list shows at once on a screen `screenHeight` rows high.
    static func listRows(screenHeight: Int) -> Int {
        max(1, min(screenHeight - 2, 18) - 2)
    }

    static func draw(_ picker: GroupPicker, state: AppState, into screen: inout ScreenBuffer) {
        let key = { (action: Action) in BookmarksView.key(action, state) }
        let title = "Static groups of \(TerminalText.cleanedLine(picker.address.text)) (\(TerminalText.cleanedLine(picker.fileName)))"
        guard !picker.membership.choices.isEmpty else {
            let width = min(screen.width, 72)
            let lines = picker.emptyNotice.map { TerminalText.cleanedLine($0) }.flatMap { DisplayWidth.wrap($0, to: max(1, width - 4)) }
            Box.draw(title: title, lines: lines, width: width, bold: { $0 == 0 }, into: &screen)
            return
        }
        let footer = "\(key(.toggleGroup)) tick · \(key(.confirm)) apply · \(key(.close)) cancel"
        let rows = min(picker.ticked.count, listRows(screenHeight: screen.height))
        let inner = Box.draw(title: title, width: 64, height: rows + 2, footer: footer, into: &screen)
        for row in 0..<min(rows, inner.height) {
            let index = picker.cursor.top + row
            guard index < picker.ticked.count else { break }
            let choice = picker.membership.choices[index]
            let changed = choice.isMember != picker.ticked[index]
            let box = picker.ticked[index] ? "[x]" : "[ ]"
            let indent = String(repeating: "  ", count: min(choice.depth, 8))
            let line = "\(box)\(changed ? "*" : " ") \(indent)\(TerminalText.cleanedLine(choice.name))"
            let style = index == picker.cursor.selected ? Style(.selection) : Style(.overlay)
            screen.fill(x: inner.x, y: inner.y + row, width: inner.width, height: 1, style: style)
            screen.write(DisplayWidth.truncate(line, to: inner.width), x: inner.x, y: inner.y + row, style: style)
        }
    }
}
