import BibModel
import BibreadValues
import Foundation

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
        var lines = content(of: entry, width: rect.width - 2, locations: state.fileLocations)
        if let position = state.listCursor.selected < state.visible.count ? state.visible[state.listCursor.selected] : nil,
           let pages = state.fullText?.pages[position], !pages.isEmpty {
            lines = fullTextLines(pages, width: rect.width - 2, words: state.fullText?.terms.flatMap(\.words) ?? []) + lines
        }
        if let position = state.listCursor.selected < state.visible.count ? state.visible[state.listCursor.selected] : nil,
           case let conflicts = state.conflictLines(at: position), !conflicts.isEmpty {
            var shown = [Line(text: "Conflicts · \(state.keymap.keys(for: .resolveConflict).first?.description ?? "C") resolves",
                              style: Style(.error, bold: true))]
            for conflict in conflicts {
                for text in DisplayWidth.wrap(conflict, to: max(10, rect.width - 3)) { shown.append(Line(text: " " + text, style: Style())) }
            }
            lines = shown + [Line(text: "", style: Style())] + lines
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
    /// `locations`: where linked files are, by path (a file not in it is still being looked for).
    static func content(of entry: Entry, width: Int, locations: [String: FileLocation]) -> [Line] {
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
                switch locations[file.path] {
                case nil: add("◌ looking…     \(shown)", Style(.dim), indent: 1)
                case .local(let here):
                    add("● local        \(shown)", Style(), indent: 1)
                    // Through the library's path_mapping.
                    if here != file.path { add("→ \(here)", Style(.dim), indent: 3) }
                case .cached: add("● cached       \(shown)", Style(), indent: 1)
                case .found(let here):
                    add("● found by name \(shown)", Style(), indent: 1)
                    add("not there; using \(here) (same name)", Style(.dim), indent: 3)
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
