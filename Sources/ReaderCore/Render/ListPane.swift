import BibModel
import Foundation

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
            // A conflict a sync left outranks the bookmark: it asks for a choice.
            markText += state.hasConflict(at: position) ? "!"
                : marks.contains(.bookmarked) || state.bookmarkedKeys.contains(entry.key.lowercased()) ? "★" : " "
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
