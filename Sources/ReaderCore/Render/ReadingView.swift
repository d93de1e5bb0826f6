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
            if state.readingPrompt == nil { screen.write("Opening \(view.path)…", x: 2, y: 2, style: Style(.dim), limit: width - 3) }
        } else if view.pageText != nil {
            drawText(view, state: state, rows: rows, into: &screen)
        } else {
            screen.write("Reading \(AppState.pageName(view.page, info: view.info))…", x: 2, y: 2, style: Style(.dim))
        }
        if state.showsNotePanel, view.pageText != nil, view.error == nil { drawNotePanel(view, state: state, into: &screen) }
        drawPromptLine(view, state: state, into: &screen)
        drawStatus(view, state: state, into: &screen)
    }

    /// Where the text column starts: centred, beside the note column when it shows.
    static func textLeft(_ view: ReadingState, state: AppState, width: Int) -> Int {
        guard view.mode == .reflow else { return 1 }
        let used = state.readingTextWidth + (state.showsNotePanel ? state.notePanelWidth + 3 : 0)
        return max(1, (width - used) / 2)
    }

    /// The page's note, in a column right of the text.
    private static func drawNotePanel(_ view: ReadingState, state: AppState, into screen: inout ScreenBuffer) {
        guard let note = view.pageNote else { return }
        let panelWidth = state.notePanelWidth
        let x = screen.width - panelWidth - 1
        let rows = state.readingRows
        for row in 0..<rows { screen.write("│", x: x - 2, y: 1 + row, style: Style(.border)) }
        screen.write("✎ Note, \(AppState.pageName(view.page, info: view.info))", x: x, y: 1, style: Style(.accent, bold: true), limit: panelWidth)
        let lines = BookmarksView.wrapped(note, width: panelWidth)
        for (index, line) in lines.enumerated() where index < rows - 2 {
            screen.write(line, x: x, y: 3 + index, style: Style(), limit: panelWidth)
        }
        if lines.count > rows - 2 { screen.write("… n shows it all", x: x, y: rows, style: Style(.dim), limit: panelWidth) }
    }

    private static func drawText(_ view: ReadingState, state: AppState, rows: Int, into screen: inout ScreenBuffer) {
        let lines = state.readingLines(view)
        if lines.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            screen.write("This page has no text layer (a scan or an image): there is nothing to show here.", x: 2, y: 2, style: Style(.dim), limit: screen.width - 3)
            return
        }
        let left = textLeft(view, state: state, width: screen.width)
        let top = min(view.scroll, max(0, lines.count - rows))
        let highlights = searchHighlights(view, lines: lines)
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
            let limit = state.showsNotePanel ? state.readingTextWidth : screen.width - left - 1
            screen.write(line, x: left, y: y, limit: limit)
            for (characters, isCurrent) in highlights[top + row] ?? [] {
                // Columns of the whole line, less those scrolled off to the left.
                let whole = lines[top + row]
                let start = DisplayWidth.of(whole.prefix(characters.lowerBound)) - offset
                let end = DisplayWidth.of(whole.prefix(characters.upperBound)) - offset
                guard end > 0 else { continue }
                screen.restyle(x: left + max(0, start), y: y, width: end - max(0, start),
                               style: Style(.searchMatch, bold: true, underline: isCurrent))
            }
        }
        if lines.count > rows {
            let marker = top + rows < lines.count ? "↓" : "↑"
            screen.write(marker, x: screen.width - 1, y: rows, style: Style(.dim))
        }
    }

    /// The characters of each line to highlight for the search, and whether they belong to the
    /// occurrence `>`/`<` went to (underlined); a phrase cut by a line's end is lit on both lines.
    private static func searchHighlights(_ view: ReadingState, lines: [String]) -> [Int: [(Range<Int>, Bool)]] {
        guard let query = view.search else { return [:] }
        var highlights: [Int: [(Range<Int>, Bool)]] = [:]
        for (index, occurrence) in ReadingText.occurrences(of: query, in: lines).enumerated() {
            let isCurrent = index == view.currentMatch
            highlights[occurrence.line, default: []].append((occurrence.characters, isCurrent))
            if occurrence.continuation > 0 {
                highlights[occurrence.line + 1, default: []].append((0..<occurrence.continuation, isCurrent))
            }
        }
        return highlights
    }

    private static func drawPromptLine(_ view: ReadingState, state: AppState, into screen: inout ScreenBuffer) {
        let y = screen.height - 2
        if let prompt = state.readingPrompt {
            let label: String
            var shown = prompt.text
            switch prompt {
            case .goTo: label = "Go to page (as printed: xii, 151; #N: the Nth of the file): "
            case .search: label = "Search the document: "
            case .bookmarkFolder: label = "Bookmark in folder (a path such as Course/Week 1; Enter alone: the top level): "
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
        } else if let note = view.pageNote, !state.showsNotePanel {
            // Too narrow for the note column: its first line, here.
            let first = note.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            screen.write(DisplayWidth.truncate("✎ " + first, to: screen.width - 2), x: 1, y: y, style: Style(.accent))
        }
    }

    private static func drawStatus(_ view: ReadingState, state: AppState, into screen: inout ScreenBuffer) {
        let width = screen.width
        let status = Style(.status)
        let y = screen.height - 1
        screen.fill(x: 0, y: y, width: width, height: 1, style: status)
        // The printed page first: `p. 1000 (1031 of 2415)`, or `p. 7 / 11` where they are the same.
        var left = AppState.pageName(view.page, info: view.info)
        if !state.bookmarks.bookmarks(citeKey: state.citeKey(of: view).text, page: view.page).isEmpty { left = "★ " + left }
        if view.pageNote != nil { left = "✎ " + left }
        if let count = view.pageCount, count > 0 {
            if view.info?.distinctLabel(ofPage: view.page) == nil { left += " / \(count)" }
            left += " · \(view.page * 100 / count)%"
        }
        left += " · \(view.title)"
        let hints = "[ ] page  : go to  / find  m mark  n note  o open with  q back"
        let showHints = DisplayWidth.of(hints) + 30 < width
        let room = width - 2 - (showHints ? DisplayWidth.of(hints) + 2 : 0)
        screen.write(DisplayWidth.truncate(left, to: max(0, room)), x: 1, y: y, style: status)
        if showHints { screen.write(hints, x: width - DisplayWidth.of(hints) - 1, y: y, style: Style(.statusKey)) }
    }

    /// The table of contents, over the page.
    static func drawOutline(_ outline: [OutlineEntry], cursor: ListCursor, view: ReadingState, into screen: inout ScreenBuffer) {
        let inner = Box.draw(title: "Contents — Enter jumps, Esc closes", width: 90, height: outline.count + 2, into: &screen)
        for row in 0..<inner.height {
            let index = cursor.top + row
            guard index < outline.count else { break }
            let entry = outline[index]
            let page = entry.page.map { view.info?.distinctLabel(ofPage: $0) ?? String($0) } ?? "–"
            let style = index == cursor.selected ? Style(.selection) : Style(.overlay)
            screen.fill(x: inner.x, y: inner.y + row, width: inner.width, height: 1, style: style)
            let indent = String(repeating: "  ", count: min(entry.level, 6))
            screen.write(DisplayWidth.truncate(indent + entry.title, to: max(0, inner.width - DisplayWidth.of(page) - 2)), x: inner.x, y: inner.y + row, style: style)
            screen.write(page, x: inner.x + inner.width - DisplayWidth.of(page), y: inner.y + row, style: style)
        }
    }
}
