import BibModel
import Foundation

/// The group tree with member counts.
enum GroupsPane {
    static func draw(_ state: AppState, in rect: Rect, into screen: inout ScreenBuffer) {
        let focused = state.focus == .groups && !state.searchFocused
        AppState.drawTitle("Groups", focused: focused, in: rect, into: &screen)
        let rows = rect.height - 1
        guard rows > 0 else { return }
        for offset in 0..<rows {
            let index = state.groupCursor.top + offset
            guard index < state.groupRows.count else { break }
            let row = state.groupRows[index]
            let y = rect.y + 1 + offset
            if row.isHeading {
                // The file whose groups follow.
                let selected = index == state.groupCursor.selected
                let style = selected ? state.selectionStyle(focused: focused) : Style(.header, bold: true)
                if selected { screen.fill(x: rect.x, y: y, width: rect.width, height: 1, style: style) }
                screen.write(DisplayWidth.truncate(row.name, to: max(0, rect.width - 2)), x: rect.x + 1, y: y, style: style)
                continue
            }
            let isActive = row.path == state.activeGroup
            var style = Style(row.unavailableReason == nil ? .normal : .dim, bold: isActive)
            let count: String
            if row.unavailableReason != nil {
                count = "–"
            } else if row.path == "All" {
                count = Count.format(state.totalCount)
            } else {
                count = state.groupCounts[row.path].map(Count.format) ?? "…"
            }
            let marker = row.hasChildren ? (state.expandedGroups.contains(row.path) ? "▾ " : "▸ ") : "  "
            let indent = String(repeating: "  ", count: min(row.depth, 6))
            let countWidth = DisplayWidth.of(count)
            let nameRoom = rect.width - 2 - countWidth - 1
            if index == state.groupCursor.selected {
                style = state.selectionStyle(focused: focused)
                style.bold = isActive
                screen.fill(x: rect.x, y: y, width: rect.width, height: 1, style: style)
            }
            screen.write(DisplayWidth.truncate(indent + marker + row.name, to: max(0, nameRoom)), x: rect.x + 1, y: y, style: style)
            var countStyle = style
            if index != state.groupCursor.selected { countStyle.role = .dim }
            screen.write(count, x: rect.x + rect.width - countWidth - 1, y: y, style: countStyle)
        }
    }
}

/// The reference list: marks, authors, year, title, citation.
enum ListPane {
    struct Columns {
        var authors: Int
        var title: Int
        var citation: Int

        /// Three marks (PDF, read, bookmarked) and a space, so that no mark touches the authors.
        static let marks = 4
        static let year = 4
        /// The title is what a reader scans: it gets this many columns before the citation gets any.
        static let preferredTitle = 60
        /// The narrowest and widest citation column worth showing.
        static let citationRange = 16...40

        init(width: Int) {
            let room = max(0, width - Columns.marks - Columns.year - 4)
            authors = min(30, max(8, room * 27 / 100))
            let spare = room - authors - 1 - Columns.preferredTitle
            citation = spare >= Columns.citationRange.lowerBound ? min(spare, Columns.citationRange.upperBound) : 0
            title = max(0, room - authors - citation - (citation > 0 ? 1 : 0))
        }
    }

    static func draw(_ state: AppState, in rect: Rect, into screen: inout ScreenBuffer) {
        let focused = state.focus == .list && !state.searchFocused
        let arrow = state.sortDescending ? "▼" : "▲"
        let sorting = state.sortRank == nil ? " (sorting…)" : ""
        AppState.drawTitle("References", right: "sorted by \(state.sort.label) \(arrow)\(sorting)", focused: focused, in: rect, into: &screen)
        guard rect.height > 1 else { return }
        let columns = Columns(width: rect.width)
        let headerStyle = Style(.header, underline: true)
        screen.fill(x: rect.x, y: rect.y + 1, width: rect.width, height: 1, style: headerStyle)
        func header(_ title: String, _ key: SortKey?) -> String {
            key == state.sort ? "\(title) \(arrow)" : title
        }
        var x = rect.x + 1 + Columns.marks
        screen.write(header("Authors", .author), x: x, y: rect.y + 1, style: headerStyle, limit: columns.authors)
        x += columns.authors + 1
        screen.write(header("Year", .year), x: x, y: rect.y + 1, style: headerStyle, limit: Columns.year + 2)
        x += Columns.year + 1
        screen.write(header("Title", .title), x: x, y: rect.y + 1, style: headerStyle, limit: columns.title)
        x += columns.title + 1
        if columns.citation > 0 {
            screen.write("Citation", x: x, y: rect.y + 1, style: headerStyle, limit: columns.citation)
        }
        let rows = rect.height - 2
        guard let library = state.library else { return }
        if state.visible.isEmpty && rows > 0 {
            let note: String
            if state.groupMembers == nil {
                note = "Working out the members of \(state.activeGroup)…"
            } else if state.searchMatches != nil {
                note = "Nothing matches the search"
            } else if state.totalCount == 0 {
                note = "This library has no references"
            } else {
                note = "This group is empty"
            }
            screen.write(note, x: rect.x + 2, y: rect.y + 2, style: Style(.dim), limit: rect.width - 3)
            return
        }
        for offset in 0..<max(0, rows) {
            let index = state.listCursor.top + offset
            guard index < state.visible.count else { break }
            let position = state.visible[index]
            let entry = library.entries[position]
            let y = rect.y + 2 + offset
            let selected = index == state.listCursor.selected
            let style = selected ? state.selectionStyle(focused: focused) : Style()
            if selected { screen.fill(x: rect.x, y: y, width: rect.width, height: 1, style: style) }
            let marks = state.marks.map { position < $0.count ? $0[position] : [] } ?? []
            var markText = ""
            markText += marks.contains(.hasPDF) ? "●" : marks.contains(.remoteOnly) ? "○" : " "
            markText += marks.contains(.read) ? "✓" : " "
            markText += marks.contains(.bookmarked) || state.bookmarkedKeys.contains(entry.key.lowercased()) ? "★" : " "
            screen.write(markText, x: rect.x + 1, y: y, style: selected ? style : Style(.mark))
            var x = rect.x + 1 + Columns.marks
            screen.write(DisplayWidth.truncate(entry.creators.display, to: columns.authors), x: x, y: y, style: style)
            x += columns.authors + 1
            screen.write(entry.year.map { String($0.prefix(Columns.year)) } ?? "", x: x, y: y, style: style)
            x += Columns.year + 1
            screen.write(DisplayWidth.truncate(entry.title, to: columns.title), x: x, y: y, style: style)
            x += columns.title + 1
            if columns.citation > 0 {
                var citationStyle = style
                if !selected { citationStyle.role = .dim }
                screen.write(DisplayWidth.truncate(entry.citation, to: columns.citation), x: x, y: y, style: citationStyle)
            }
        }
    }
}

/// Every field of the selected reference, its files and their state, its abstract.
enum DetailsPane {
    /// The most of one value's raw bytes the pane lays out (its first screens).
    static let valueByteLimit = 16_000

    struct Line {
        var text: String
        var style: Style
        /// Words to highlight in the line (the search's text: terms in a snippet).
        var highlights: [String] = []
    }

    /// "In the PDF": the best pages where the search's text: terms were found, with snippets.
    static func fullTextLines(_ pages: [FullTextPage], width: Int, words: [String] = []) -> [Line] {
        let first = pages.first.map { " · Enter: p. \($0.page)" } ?? ""
        var lines = [Line(text: "In the PDF" + first, style: Style(.header, bold: true))]
        for page in pages {
            let wrapped = DisplayWidth.wrap("p. \(page.page): " + page.snippet, to: max(10, width - 1))
            for text in wrapped { lines.append(Line(text: " " + text, style: Style(), highlights: words)) }
        }
        lines.append(Line(text: "", style: Style()))
        return lines
    }

    static func draw(_ state: AppState, in rect: Rect, into screen: inout ScreenBuffer) {
        let focused = state.focus == .details && !state.searchFocused
        guard let entry = state.selectedEntry else {
            AppState.drawTitle("Details", focused: focused, in: rect, into: &screen)
            return
        }
        AppState.drawTitle(entry.address, right: "@\(entry.type)", focused: focused, in: rect, into: &screen)
        var lines = content(of: entry, width: rect.width - 2, locate: state.locate)
        if let position = state.listCursor.selected < state.visible.count ? state.visible[state.listCursor.selected] : nil,
           let pages = state.fullText?.pages[position], !pages.isEmpty {
            lines = fullTextLines(pages, width: rect.width - 2, words: state.fullText?.terms.flatMap(\.words) ?? []) + lines
        }
        let rows = rect.height - 1
        let top = min(state.detailsScroll, max(0, lines.count - rows))
        for offset in 0..<max(0, rows) {
            let index = top + offset
            guard index < lines.count else { break }
            screen.write(lines[index].text, x: rect.x + 1, y: rect.y + 1 + offset, style: lines[index].style, limit: rect.width - 2)
            for word in lines[index].highlights {
                for match in ReadingText.matches(of: word, in: lines[index].text) {
                    let start = rect.x + 1 + DisplayWidth.of(lines[index].text[lines[index].text.startIndex..<match.lowerBound])
                    screen.restyle(x: start, y: rect.y + 1 + offset, width: DisplayWidth.of(lines[index].text[match]),
                                   style: Style(.searchMatch, bold: true))
                }
            }
        }
        if lines.count > rows && rows > 0 {
            let more = top + rows < lines.count ? "↓" : "↑"
            screen.write(more, x: rect.x + rect.width - 1, y: rect.y + rect.height - 1, style: Style(.dim))
        }
    }

    /// Whether a word is a web link or a DOI: kept whole on a line of its own when it does not
    /// fit the field's column.
    static func isLink(_ word: Substring) -> Bool {
        word.contains("://") || (word.hasPrefix("10.") && word.contains("/"))
    }

    /// A field's value wrapped to its column, `width` wide; a link or DOI too wide for the
    /// column goes on lines of its own, `linkWidth` wide (`ownLine`), cut only when longer.
    static func valueLines(_ value: String, width: Int, linkWidth: Int) -> [(text: String, ownLine: Bool)] {
        var result: [(text: String, ownLine: Bool)] = []
        var run: [Substring] = []
        func flush() {
            guard !run.isEmpty else { return }
            result += DisplayWidth.wrap(run.joined(separator: " "), to: width).map { ($0, false) }
            run = []
        }
        for word in value.split(separator: " ") {
            if isLink(word) && DisplayWidth.of(word) > width {
                flush()
                result += linkLines(String(word), width: linkWidth).map { ($0, true) }
            } else {
                run.append(word)
            }
        }
        flush()
        return result.isEmpty ? [("", false)] : result
    }

    /// A link on lines at most `width` columns wide: whole when it fits; else cut after a `/`
    /// in the second half of the line, or else after another separator (`.-?&=#_~`) past its
    /// first third, and only where there is none at the line's end. Each line measures only
    /// the characters that fit it (and one more).
    static func linkLines(_ link: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var rest = Substring(link)
        while true {
            // Where each character that fits the line ends, and the columns up to there.
            var ends: [(index: String.Index, columns: Int)] = []
            var index = rest.startIndex
            var used = 0
            while index < rest.endIndex {
                let columns = DisplayWidth.of(rest[index])
                if used + columns > width { break }
                used += columns
                index = rest.index(after: index)
                ends.append((index, used))
            }
            guard index < rest.endIndex, let fit = ends.last?.index else { break }
            func lastCut(after separators: String, from minimum: Int) -> String.Index? {
                for end in ends.reversed() {
                    if end.columns <= minimum { return nil }
                    if separators.contains(rest[rest.index(before: end.index)]) { return end.index }
                }
                return nil
            }
            let cut = lastCut(after: "/", from: width / 2) ?? lastCut(after: "/.-?&=#_~", from: width / 3) ?? fit
            lines.append(String(rest[..<cut]))
            rest = rest[cut...]
        }
        lines.append(String(rest))
        return lines
    }

    /// The start of a text too long to lay out whole: at most `valueByteLimit` bytes of it, cut
    /// between characters, and its whole size in bytes (nil when it is shown whole).
    static func capped(_ text: String) -> (text: String, size: Int?) {
        let size = text.utf8.count
        guard size > valueByteLimit else { return (text, nil) }
        var head = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            if bytes > valueByteLimit { break }
            head.append(character)
        }
        return (head, size)
    }

    /// A field's decoded value, of its first `valueByteLimit` bytes when it is longer, and the
    /// raw value's whole size then (a 10 MB blob is neither decoded nor laid out whole at every
    /// key press).
    static func shownValue(of field: Field, in entry: Entry) -> (text: String, size: Int?) {
        let size = entry.rawByteCount(of: field)
        guard size > valueByteLimit else { return (entry.decodedText(of: field), nil) }
        return (entry.decodedText(of: field, upTo: valueByteLimit), size)
    }

    /// What follows the first screens of a value too long to show whole.
    static func sizeNote(_ size: Int) -> String {
        "… \(ByteCount.format(Int64(size))), first \(ByteCount.format(Int64(valueByteLimit))) shown"
    }

    /// The details as wrapped, styled lines for a pane `width` columns wide.
    static func content(of entry: Entry, width: Int, locate: (LinkedFile) -> FileLocation) -> [Line] {
        var lines: [Line] = []
        let width = max(10, width)
        func add(_ text: String, _ style: Style = Style(), indent: Int = 0, size: Int? = nil) {
            let pad = String(repeating: " ", count: indent)
            let (shown, cutFrom) = capped(text)
            for line in DisplayWidth.wrap(shown, to: width - indent) { lines.append(Line(text: pad + line, style: style)) }
            if let whole = size ?? cutFrom {
                for line in DisplayWidth.wrap(sizeNote(whole), to: width - indent) { lines.append(Line(text: pad + line, style: Style(.dim))) }
            }
        }
        let title = entry.field(.title).map { shownValue(of: $0, in: entry) }
        if let title, !title.text.isEmpty {
            add(title.text, Style(.accent, bold: true), size: title.size)
        } else {
            add("(no title)", Style(.accent, bold: true))
        }
        let authors = entry.authors.names.map(\.fullName) + (entry.authors.hasOthers ? ["et al."] : [])
        if !authors.isEmpty { add(authors.joined(separator: "; ")) }
        let editors = entry.editors.names.map(\.fullName) + (entry.editors.hasOthers ? ["et al."] : [])
        if !editors.isEmpty { add("Edited by " + editors.joined(separator: "; ")) }
        let citation = entry.citation
        if !citation.isEmpty { add(citation, Style(.dim)) }
        let links = entry.links
        if !links.files.isEmpty {
            lines.append(Line(text: "", style: Style()))
            add("Files", Style(.header, bold: true))
            let folder = (entry.source.path as NSString).deletingLastPathComponent + "/"
            for file in links.files {
                let shown = file.path.hasPrefix(folder) ? String(file.path.dropFirst(folder.count)) : file.path
                switch locate(file) {
                case .local: add("● local        \(shown)", Style(), indent: 1)
                case .cached: add("● cached       \(shown)", Style(), indent: 1)
                case .remoteOnly: add("○ remote only  \(shown)", Style(.dim), indent: 1)
                case .missing: add("○ missing      \(shown)", Style(.error), indent: 1)
                }
            }
        }
        if !links.urls.isEmpty {
            lines.append(Line(text: "", style: Style()))
            add("Links", Style(.header, bold: true))
            for url in links.urls {
                let (shown, size) = capped(url)
                for line in linkLines(shown, width: width - 1) { lines.append(Line(text: " " + line, style: Style())) }
                if let size {
                    for note in DisplayWidth.wrap(sizeNote(size), to: width - 1) { lines.append(Line(text: " " + note, style: Style(.dim))) }
                }
            }
        }
        lines.append(Line(text: "", style: Style()))
        add("Fields", Style(.header, bold: true))
        let nameWidth = min(14, entry.fields.map { DisplayWidth.of(entry.spelledName(of: $0)) }.max() ?? 8)
        var abstract: (text: String, size: Int?)?
        for field in entry.fields {
            let name = entry.name(of: field)
            if name == "abstract" {
                abstract = shownValue(of: field, in: entry)
                continue
            }
            if name.hasPrefix("bdsk-file-") { continue }
            let (text, size) = shownValue(of: field, in: entry)
            let value = text + (entry.parent(of: field).map { " (from \($0))" } ?? "")
            let valueWidth = max(8, width - nameWidth - 3)
            let label = DisplayWidth.pad(entry.spelledName(of: field), to: nameWidth)
            let blank = String(repeating: " ", count: nameWidth)
            var labelled = false
            for piece in valueLines(value, width: valueWidth, linkWidth: width - 2) {
                if piece.ownLine {
                    if !labelled { lines.append(Line(text: " \(label)", style: Style())) }
                    lines.append(Line(text: "  " + piece.text, style: Style()))
                } else {
                    lines.append(Line(text: " \(labelled ? blank : label)  \(piece.text)", style: Style()))
                }
                labelled = true
            }
            if let size {
                for note in DisplayWidth.wrap(sizeNote(size), to: valueWidth) { lines.append(Line(text: " \(blank)  \(note)", style: Style(.dim))) }
            }
        }
        if let abstract, !abstract.text.isEmpty {
            lines.append(Line(text: "", style: Style()))
            add("Abstract", Style(.header, bold: true))
            add(abstract.text, size: abstract.size)
        }
        return lines
    }
}

/// The search bar: the query, its problems, the hint when empty.
enum SearchBar {
    static func draw(_ state: AppState, in rect: Rect, into screen: inout ScreenBuffer) {
        let style = Style(.searchBar)
        screen.fill(x: rect.x, y: rect.y, width: rect.width, height: 1, style: style)
        guard state.library != nil else { return }
        let prompt = "/ "
        screen.write(prompt, x: rect.x, y: rect.y, style: Style(.searchBar, bold: true))
        let start = rect.x + prompt.count
        if state.searchText.isEmpty && !state.searchFocused {
            screen.write("press / to search: words, author:knuth, -errata, year:1984..1990",
                         x: start, y: rect.y, style: Style(.dim))
            return
        }
        var note = ""
        var noteStyle = Style(.dim)
        if let error = state.searchError {
            note = error
            noteStyle = Style(.error)
        } else if state.searchIndex == nil && !state.searchText.isEmpty {
            note = "indexing…"
        } else if let matches = state.searchMatches {
            let here = state.visible.count
            note = "\(Count.format(here)) match\(here == 1 ? "" : "es")"
            if here != matches.count { note += " in \(state.activeGroup) · \(Count.format(matches.count)) in all" }
        }
        let noteWidth = DisplayWidth.of(note)
        let room = max(1, rect.width - prompt.count - noteWidth - 2)
        // Show the end of a long query: that is where the typing happens.
        var shown = state.searchText
        while DisplayWidth.of(shown) > room - 1, !shown.isEmpty { shown.removeFirst() }
        let written = screen.write(shown, x: start, y: rect.y, style: Style(.searchBar))
        if state.searchFocused { screen.cursor = (x: start + written, y: rect.y) }
        if !note.isEmpty { screen.write(note, x: rect.x + rect.width - noteWidth - 1, y: rect.y, style: noteStyle) }
    }
}

/// The bottom line: counts, group and search, messages, key hints.
enum StatusLine {
    static func draw(_ state: AppState, in rect: Rect, into screen: inout ScreenBuffer) {
        let style = Style(.status)
        screen.fill(x: rect.x, y: rect.y, width: rect.width, height: 1, style: style)
        let hints: [(String, String)] = state.searchFocused
            ? [("Enter", "keep"), ("Esc", "clear")]
            : [(keyName(.search, state), "search"), (keyName(.cycleSort, state), "sort"), (keyName(.showBookmarks, state), "bookmarks"),
               (keyName(.help, state), "help"), (keyName(.quit, state), "quit")]
        var hintText: [(String, Style)] = []
        for (key, label) in hints where !key.isEmpty {
            hintText.append((key, Style(.statusKey, bold: true)))
            hintText.append((" \(label)  ", style))
        }
        let hintWidth = hintText.reduce(0) { $0 + DisplayWidth.of($1.0) }
        let left: String
        var leftStyle = style
        if let waiting = state.waitingForRemote, state.syncing != nil || state.fetching != nil {
            left = "\(waiting) · Esc stops waiting"
            leftStyle = Style(.message, bold: true)
        } else if let sync = state.syncing, state.fetching == nil {
            let percent = sync.total > 0 ? " \(sync.done * 100 / sync.total)%" : ""
            let file = sync.file.isEmpty ? "" : " · \((sync.file as NSString).lastPathComponent)"
            left = "Syncing\(percent) · \(ByteCount.format(max(0, sync.total - sync.done))) left\(file)"
            leftStyle = Style(.message, bold: true)
        } else if let fetch = state.fetching {
            let name = (fetch.path as NSString).lastPathComponent
            let percent = fetch.total.map { $0 > 0 ? " \(fetch.bytes * 100 / $0)%" : "" } ?? ""
            let size = fetch.total.map { " of \(ByteCount.format($0))" } ?? ""
            left = "Downloading \(name)\(percent)\(size) · Esc cancels"
            leftStyle = Style(.message, bold: true)
        } else if let message = state.message {
            left = message.text
            leftStyle = Style(message.isError ? .error : .message, bold: message.isError)
        } else {
            var parts = ["\(Count.format(state.visible.count)) of \(Count.format(state.totalCount))"]
            parts.append(state.activeGroup)
            if !state.searchText.isEmpty { parts.append("search: \(state.searchText)") }
            if state.fullTextPending != nil { parts.append("searching the PDFs…") }
            if let indexing = state.indexing {
                parts.append("indexing PDFs \(Count.format(indexing.done)) of \(Count.format(indexing.total))")
            }
            left = parts.joined(separator: " · ")
        }
        // A message wins over the key hints when both do not fit.
        let showHints = rect.width - hintWidth > 30 && (state.message == nil || DisplayWidth.of(left) + hintWidth + 3 <= rect.width)
        let leftRoom = rect.width - 2 - (showHints ? hintWidth : 0)
        screen.write(DisplayWidth.truncate(left, to: max(0, leftRoom)), x: rect.x + 1, y: rect.y, style: leftStyle)
        guard showHints else { return }
        var x = rect.x + rect.width - hintWidth
        for (text, textStyle) in hintText { x += screen.write(text, x: x, y: rect.y, style: textStyle) }
    }

    private static func keyName(_ action: Action, _ state: AppState) -> String {
        state.keymap.keys(for: action).first?.description ?? ""
    }
}
