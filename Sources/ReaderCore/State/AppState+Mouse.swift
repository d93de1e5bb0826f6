import BibModel
import BibreadValues
import Foundation

/// Clicks and the wheel, routed as keys are.
extension AppState {
    /// The mouse: in the reading view the wheel scrolls (as Down and Up would, whatever is
    /// over it); elsewhere a click closes the help, a chooser, the keywords prompt and the
    /// static groups checklist take none (the reference they change stays selected), the bookmarks view
    /// has its own, and the library's panes select, open and scroll.
    mutating func handle(_ mouse: MouseEvent) -> [Effect] {
        if case .reading = screen.mode {
            switch mouse.kind {
            case .wheelDown: return keepingReadingPosition { $0.handleReadingLayers(.down) }
            case .wheelUp: return keepingReadingPosition { $0.handleReadingLayers(.up) }
            default: return []
            }
        }
        guard library != nil, screen.chooser == nil, screen.keywordEditor == nil, screen.groupPicker == nil else { return [] }
        if showingHelp {
            screen.close(.help)
            return []
        }
        if case .bookmarks = screen.mode { return handleBookmarks(mouse) }
        let layout = Layout(width: width, height: height, focus: focus)
        if layout.searchBar.contains(x: mouse.x, y: mouse.y) {
            searchFocused = true
            return []
        }
        for pane in layout.visiblePanes {
            guard let rect = layout.rect(of: pane), rect.contains(x: mouse.x, y: mouse.y) else { continue }
            searchFocused = false
            focus = pane
            switch mouse.kind {
            case .wheelDown: return move(by: 3)
            case .wheelUp: return move(by: -3)
            case .click, .doubleClick:
                let firstRow = rect.y + (pane == .list ? 2 : 1)
                let offset = mouse.y - firstRow
                guard offset >= 0 else { return [] }
                switch pane {
                case .groups:
                    let index = groupCursor.top + offset
                    guard index < groupRows.count else { return [] }
                    groupCursor.selected = index
                    groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
                    guard let id = groupRows[index].id else { return mouse.kind == .doubleClick ? open() : [] }
                    return mouse.kind == .doubleClick ? open() : activateGroup(id)
                case .list:
                    let index = listCursor.top + offset
                    guard index < visible.count else { return [] }
                    if listCursor.selected != index { detailsScroll = 0 }
                    listCursor.selected = index
                    listCursor.clamp(count: visible.count, rows: pageRows(.list))
                    return mouse.kind == .doubleClick ? open() : []
                case .details:
                    return []
                }
            }
        }
        return []
    }
}
