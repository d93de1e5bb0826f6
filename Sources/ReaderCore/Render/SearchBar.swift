import BibModel
import Foundation

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
