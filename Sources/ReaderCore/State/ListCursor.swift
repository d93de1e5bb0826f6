import BibModel
import Foundation
import ReadingList

/// A list position: the selected row and the first row shown.
public struct ListCursor: Sendable, Equatable {
    public var selected = 0
    public var top = 0

    /// Keeps `selected` within `count` rows and on screen in a window of `rows` rows.
    mutating func clamp(count: Int, rows: Int) {
        selected = count == 0 ? 0 : min(max(0, selected), count - 1)
        let rows = max(1, rows)
        if selected < top { top = selected }
        if selected >= top + rows { top = selected - rows + 1 }
        top = max(0, min(top, max(0, count - rows)))
    }
}
