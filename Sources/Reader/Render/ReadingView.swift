/// The reading view: a title bar, one page of text, a prompt or message line, a status line.
enum ReadingView {
    static func draw(_ view: ReadingState, state: AppState, into screen: inout ScreenBuffer) {
        let width = screen.width
        let titleStyle = Style(.title, bold: true)
        screen.fill(x: 0, y: 0, width: width, height: 1, style: titleStyle)
        let mode = view.mode == .layout ? "layout" : "reflow"
        screen.write(DisplayWidth.truncate(view.title, to: max(0, width - DisplayWidth.of(mode) - 4)), x: 1, y: 0, style: titleStyle)
        screen.write(mode, x: width - DisplayWidth.of(mode) - 1, y: 0, style: titleStyle)
        let rows = state.readingRows
        if let error = view.error {
            for (index, line) in DisplayWidth.wrap(error, to: width - 4).enumerated() where index < rows {
                screen.write(line, x: 2, y: 2 + index, style: Style(.error, bold: true))
            }
        } else if view.info == nil {
            if view.prompt == nil { screen.write("Opening \(view.path)…", x: 2, y: 2, style: Style(.dim), limit: width - 3) }
        } else if view.pageText != nil {
            drawText(view, state: state, rows: rows, into: &screen)
        } else {
            screen.write("Reading \(AppState.pageName(view.page, info: view.info))…", x: 2, y: 2, style: Style(.dim))
        }
        drawPromptLine(view, state: state, into: &screen)
        drawStatus(view, into: &screen)
        if view.showingOutline, let outline = view.info?.outline { drawOutline(outline, view: view, into: &screen) }
    }

    private static func drawText(_ view: ReadingState, state: AppState, rows: Int, into screen: inout ScreenBuffer) {
        let lines = state.readingLines(view)
        if lines.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            screen.write("This page has no text layer (a scan or an image): there is nothing to show here.", x: 2, y: 2, style: Style(.dim), limit: screen.width - 3)
            return
        }
        let left = view.mode == .reflow ? max(1, (screen.width - state.readingTextWidth) / 2) : 1
        let top = min(view.scroll, max(0, lines.count - rows))
        for row in 0..<rows where top + row < lines.count {
            var line = lines[top + row]
            var offset = 0
            if view.mode == .layout && view.column > 0 {
                // Drop whole characters until `column` columns are gone.
                while offset < view.column, let first = line.first {
                    offset += DisplayWidth.of(first)
                    line.removeFirst()
                }
            }
            let y = 1 + row
            screen.write(line, x: left, y: y, limit: screen.width - left - 1)
            if let query = view.search {
                for match in ReadingText.matches(of: query, in: line) {
                    let start = left + DisplayWidth.of(line[line.startIndex..<match.lowerBound])
                    screen.restyle(x: start, y: y, width: DisplayWidth.of(line[match]), style: Style(.searchMatch, bold: true))
                }
            }
        }
        if lines.count > rows {
            let marker = top + rows < lines.count ? "↓" : "↑"
            screen.write(marker, x: screen.width - 1, y: rows, style: Style(.dim))
        }
    }

    private static func drawPromptLine(_ view: ReadingState, state: AppState, into screen: inout ScreenBuffer) {
        let y = screen.height - 2
        if let prompt = view.prompt {
            let label: String
            var shown = prompt.text
            switch prompt {
            case .goTo: label = "Go to page (number or label): "
            case .search: label = "Search the document: "
            case .password(let text, let wrong):
                label = (wrong ? "Wrong password; try again: " : "This PDF is encrypted. Password: ")
                shown = String(repeating: "•", count: text.count)
            }
            screen.write(label, x: 1, y: y, style: Style(.searchBar, bold: true))
            let x = 1 + DisplayWidth.of(label)
            let written = screen.write(shown, x: x, y: y, style: Style(.searchBar))
            screen.cursor = (x: x + written, y: y)
        } else if let message = state.message {
            screen.write(DisplayWidth.truncate(message.text, to: screen.width - 2), x: 1, y: y,
                         style: Style(message.isError ? .error : .message))
        } else if view.searching {
            screen.write("Searching…", x: 1, y: y, style: Style(.dim))
        }
    }

    private static func drawStatus(_ view: ReadingState, into screen: inout ScreenBuffer) {
        let width = screen.width
        let status = Style(.status)
        let y = screen.height - 1
        screen.fill(x: 0, y: y, width: width, height: 1, style: status)
        var left = AppState.pageName(view.page, info: view.info)
        if let count = view.pageCount, count > 0 { left += " / \(count) · \(view.page * 100 / count)%" }
        left += " · \(view.title)"
        let hints = "[ ] page  : go to  / find  o contents  t layout  q back"
        let showHints = DisplayWidth.of(hints) + 30 < width
        let room = width - 2 - (showHints ? DisplayWidth.of(hints) + 2 : 0)
        screen.write(DisplayWidth.truncate(left, to: max(0, room)), x: 1, y: y, style: status)
        if showHints { screen.write(hints, x: width - DisplayWidth.of(hints) - 1, y: y, style: Style(.statusKey)) }
    }

    private static func drawOutline(_ outline: [OutlineEntry], view: ReadingState, into screen: inout ScreenBuffer) {
        let inner = Box.draw(title: "Contents — Enter jumps, Esc closes", width: 90, height: outline.count + 2, into: &screen)
        for row in 0..<inner.height {
            let index = view.outlineCursor.top + row
            guard index < outline.count else { break }
            let entry = outline[index]
            let page = entry.page.map { view.info?.distinctLabel(ofPage: $0) ?? String($0) } ?? "–"
            let style = index == view.outlineCursor.selected ? Style(.selection) : Style(.overlay)
            screen.fill(x: inner.x, y: inner.y + row, width: inner.width, height: 1, style: style)
            let indent = String(repeating: "  ", count: min(entry.level, 6))
            screen.write(DisplayWidth.truncate(indent + entry.title, to: max(0, inner.width - DisplayWidth.of(page) - 2)), x: inner.x, y: inner.y + row, style: style)
            screen.write(page, x: inner.x + inner.width - DisplayWidth.of(page), y: inner.y + row, style: style)
        }
    }
}
