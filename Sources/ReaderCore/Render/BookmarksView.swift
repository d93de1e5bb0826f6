import BibModel
import BibreadValues
import ReadingList

/// The bookmarks view: a title bar, the tree, a preview of the selected node, a prompt or
/// message line and a status line of keys.
enum BookmarksView {
    static func draw(_ view: BookmarksViewState, state: AppState, into screen: inout ScreenBuffer) {
        let width = screen.width
        let titleStyle = Style(.title, bold: true)
        screen.fill(x: 0, y: 0, width: width, height: 1, style: titleStyle)
        screen.write("Bookmarks", x: 1, y: 0, style: titleStyle)
        let total = SavedBookmarks.bookmarkCount(state.bookmarks.nodes)
        let count = "\(Count.format(total)) bookmark\(total == 1 ? "" : "s")"
        screen.write(count, x: width - DisplayWidth.of(count) - 1, y: 0, style: titleStyle)

        let rows = state.bookmarkTreeRows
        let treeRows = state.bookmarkRows
        if rows.isEmpty {
            let lines = [
                "No bookmarks yet.",
                "",
                "Open a PDF and press \(key(.bookmarkPage, state)) to bookmark the page you read, \(key(.editNote, state)) to write its note;",
                "press \(key(.importList, state)) to import a reading list (a file, an http(s) URL or a bibread:// link).",
            ]
            for (index, line) in lines.enumerated() { screen.write(line, x: 2, y: 2 + index, style: Style(.dim), limit: width - 3) }
        }
        for offset in 0..<treeRows {
            let index = view.cursor.top + offset
            guard index < rows.count else { break }
            drawRow(rows[index], selected: index == view.cursor.selected, expanded: view.expanded, state: state, y: 1 + offset, into: &screen)
        }
        if rows.count > treeRows {
            let marker = view.cursor.top + treeRows < rows.count ? "↓" : "↑"
            screen.write(marker, x: width - 1, y: treeRows, style: Style(.dim))
        }
        if state.bookmarkPreviewHeight > 0, let selected = state.selectedBookmarkRow {
            drawPreview(selected.node, state: state, top: 1 + treeRows, into: &screen)
        }
        drawPromptLine(view, state: state, into: &screen)
        drawStatus(state, into: &screen)
    }

    /// The first key of an action, as help shows it.
    static func key(_ action: Action, _ state: AppState) -> String {
        state.keymap.keys(for: action).first?.description ?? "(unbound)"
    }

    private static func drawRow(_ row: BookmarkRow, selected: Bool, expanded: Set<Int64>, state: AppState, y: Int,
                                into screen: inout ScreenBuffer) {
        let width = screen.width
        let style = selected ? Style(.selection) : Style()
        if selected { screen.fill(x: 0, y: y, width: width, height: 1, style: style) }
        let indent = String(repeating: "  ", count: min(row.depth, 12))
        let node = row.node
        var x = 1 + DisplayWidth.of(indent)
        switch node.kind {
        case .folder:
            let open = expanded.contains(node.id)
            let count = SavedBookmarks.bookmarkCount(node.children)
            x += screen.write(open ? "▾ " : "▸ ", x: x, y: y, style: selected ? style : Style(.accent))
            let countText = "\(count) bookmark\(count == 1 ? "" : "s")"
            screen.write(DisplayWidth.truncate(node.name, to: max(0, width - x - DisplayWidth.of(countText) - 3)), x: x, y: y,
                         style: Style(style.role, bold: true))
            screen.write(countText, x: width - DisplayWidth.of(countText) - 1, y: y, style: selected ? style : Style(.dim))
        case .notemark:
            x += screen.write("✎ ", x: x, y: y, style: selected ? style : Style(.mark))
            screen.write(DisplayWidth.truncate(node.name, to: max(0, width - x - 1)), x: x, y: y, style: style)
        case .bookmark:
            x += screen.write("★ ", x: x, y: y, style: selected ? style : Style(.mark))
            let missing = node.reference.map { !state.isInLibrary($0) } ?? true
            let suffix = missing ? "  (not in this library)" : ""
            let room = max(0, width - x - 1 - DisplayWidth.of(suffix))
            x += screen.write(DisplayWidth.truncate(node.label, to: room), x: x, y: y, style: style)
            if missing { screen.write(suffix, x: x, y: y, style: selected ? style : Style(.error)) }
        }
    }

    private static func drawPreview(_ node: SavedNode, state: AppState, top: Int, into screen: inout ScreenBuffer) {
        let width = screen.width
        screen.write(String(repeating: "─", count: width), x: 0, y: top, style: Style(.border))
        var lines: [(String, Style)] = []
        switch node.kind {
        case .folder:
            let count = SavedBookmarks.bookmarkCount(node.children)
            lines.append(("\(node.name): \(count) bookmark\(count == 1 ? "" : "s")", Style(.dim)))
        case .notemark:
            for line in wrapped(node.text ?? "", width: width - 4) { lines.append((line, Style())) }
        case .bookmark:
            guard let reference = node.reference else { break }
            if let entry = state.library?.entries(withKey: reference.citeKey).first {
                let year = entry.year.map { " (\($0))" } ?? ""
                lines.append(("\(entry.creators.display)\(year) \(entry.title)", Style(bold: true)))
                lines.append((entry.citation, Style(.dim)))
            } else {
                let library = reference.library.map { "; the list names the library \($0)" } ?? ""
                lines.append(("\(reference.citeKey) is not in this library\(library)", Style(.error)))
            }
            lines.append(("\(reference.pageLabel) · Enter opens it there", Style(.dim)))
        }
        for (index, line) in lines.prefix(state.bookmarkPreviewHeight - 1).enumerated() {
            screen.write(DisplayWidth.truncate(line.0, to: width - 4), x: 2, y: top + 1 + index, style: line.1)
        }
    }

    /// Text wrapped to a width, keeping its own line breaks.
    static func wrapped(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            line.isEmpty ? [""] : DisplayWidth.wrap(String(line), to: max(1, width))
        }
    }

    private static func drawPromptLine(_ view: BookmarksViewState, state: AppState, into screen: inout ScreenBuffer) {
        let y = screen.height - 2
        if let prompt = state.screen.bookmarksPrompt {
            let label: String
            switch prompt {
            case .importSource: label = "Import from (file, URL or bibread:// link): "
            case .newFolder: label = "New folder: "
            case .rename: label = "Rename to: "
            case .moveInto(let id, _):
                label = "Move '\(state.bookmarks.node(id: id)?.label ?? "")' into folder (Enter alone: the top level): "
            case .confirmDelete(let id):
                let node = state.bookmarks.node(id: id)
                let what = node.map { $0.kind == .folder ? "the folder \($0.name) and all it holds" : "'\($0.label)'" } ?? "this"
                label = "Delete \(what)? y/n "
            }
            screen.write(label, x: 1, y: y, style: Style(.searchBar, bold: true))
            let x = 1 + DisplayWidth.of(label)
            // Long text (a pasted link) shows its end, where the typing is.
            let room = max(1, screen.width - x - 2)
            var shown = prompt.text
            while DisplayWidth.of(shown) > room { shown.removeFirst() }
            let written = screen.write(shown, x: x, y: y, style: Style(.searchBar))
            screen.cursor = (x: x + written, y: y)
        } else if let source = view.importing {
            let size = view.importBytes > 0 ? " \(ByteCount.format(view.importBytes))" : ""
            screen.write(DisplayWidth.truncate("Reading the list\(size) from \(source) · Esc stops", to: screen.width - 2), x: 1, y: y,
                         style: Style(.message, bold: true))
        } else if let message = state.message {
            screen.write(DisplayWidth.truncate(message.text, to: screen.width - 2), x: 1, y: y,
                         style: Style(message.isError ? .error : .message, bold: message.isError))
        }
    }

    private static func drawStatus(_ state: AppState, into screen: inout ScreenBuffer) {
        let y = screen.height - 1
        let style = Style(.status)
        screen.fill(x: 0, y: y, width: screen.width, height: 1, style: style)
        let hints: [(Action, String)] = [(.openBookmark, "open"), (.newFolder, "folder"), (.renameBookmark, "rename"),
                                         (.deleteBookmark, "delete"), (.moveBookmark, "move"), (.importList, "import"), (.closeBookmarks, "back")]
        var x = 1
        for (action, label) in hints {
            let name = key(action, state)
            guard x + DisplayWidth.of(name) + DisplayWidth.of(label) + 3 < screen.width else { break }
            x += screen.write(name, x: x, y: y, style: Style(.statusKey, bold: true))
            x += screen.write(" \(label)  ", x: x, y: y, style: style)
        }
    }

    /// Whether a reading list's page notes are imported too.
    static func drawNotesQuestion(_ pending: PendingImport, into screen: inout ScreenBuffer) {
        let list = pending.decoded.list
        let name = list.root.name.isEmpty ? pending.fallbackName : list.root.name
        let lines = [
            "'\(name)' carries \(list.pageNoteCount) page note\(list.pageNoteCount == 1 ? "" : "s").",
            list.pageNoteCount == 1 ? "Import it too? It is added after your own note on" : "Import them too? They are added after your own notes on",
            list.pageNoteCount == 1 ? "that page, never replacing it." : "those pages, never replacing them.",
            "",
            "y  import the bookmarks and the notes",
            "n  import the bookmarks only",
            "Esc  import nothing",
        ]
        Box.draw(title: "Import a reading list", lines: lines, width: 64, bold: { $0 >= 4 }, into: &screen)
    }
}
