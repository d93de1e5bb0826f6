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
            let isActive = row.id == state.activeGroup
            var style = Style(row.unavailableReason == nil ? .normal : .dim, bold: isActive)
            let count: String
            if row.unavailableReason != nil {
                count = "–"
            } else if row.id == .all {
                count = Count.format(state.totalCount)
            } else {
                count = row.id.flatMap { state.groupCounts[$0] }.map(Count.format) ?? "…"
            }
            let marker = row.hasChildren ? (row.id.map(state.expandedGroups.contains) == true ? "▾ " : "▸ ") : "  "
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
