import BibreadValues
import ReadingList

/// The bookmarks view: the user's tree of folders, bookmarks and notemarks.
public struct BookmarksViewState: Sendable, Equatable {
    public var expanded: Set<Int64> = []
    public var cursor = ListCursor()
    /// The list being downloaded or read for import (its source), while it is.
    public var importing: String?
    public var importBytes: Int64 = 0
    /// The node to select once the tree arrives (a folder just made or imported).
    public var selectOnArrival: Int64?

    public init() {}
}

/// The bookmarks view's own update: moving in the tree, opening and closing folders.
extension BookmarksViewState {
    /// An action on the tree itself (`rows` as shown, `selected` the row under the cursor,
    /// `pageRows` the rows on screen); the app does the others.
    mutating func perform(_ action: Action, rows: [BookmarkRow], selected: BookmarkRow?, pageRows: Int) {
        switch action {
        case .moveDown: cursor.selected += 1
        case .moveUp: cursor.selected -= 1
        case .pageDown: cursor.selected += max(1, pageRows - 1)
        case .pageUp: cursor.selected -= max(1, pageRows - 1)
        case .halfPageDown: cursor.selected += max(1, pageRows / 2)
        case .halfPageUp: cursor.selected -= max(1, pageRows / 2)
        case .moveFirst: cursor.selected = 0
        case .moveLast: cursor.selected = rows.count - 1
        case .expandFolder:
            if let selected, selected.node.kind == .folder { expanded.insert(selected.node.id) }
        case .collapseFolder:
            guard let selected else { break }
            if selected.node.kind == .folder && expanded.contains(selected.node.id) {
                expanded.remove(selected.node.id)
            } else if selected.depth > 0, let parent = rows[..<cursor.selected].lastIndex(where: { $0.depth < selected.depth }) {
                cursor.selected = parent
            }
        case .openBookmark:
            // A folder opens or closes (the app opens bookmarks and shows notemarks).
            guard let selected, selected.node.kind == .folder else { break }
            if expanded.contains(selected.node.id) {
                expanded.remove(selected.node.id)
            } else {
                expanded.insert(selected.node.id)
            }
        default:
            break
        }
    }

    /// Keeps the cursor on the rows of `tree` shown.
    mutating func clampCursor(to tree: SavedBookmarks, rows: Int) {
        cursor.clamp(count: tree.rows(expanded: expanded).count, rows: rows)
    }

    /// The tree arrived (loaded, or changed): select `select` (or the node waited for) and
    /// open the folders down to it.
    mutating func treeArrived(_ tree: SavedBookmarks, select: Int64?, rows: Int) {
        if let select = select ?? selectOnArrival {
            expanded.formUnion(tree.ancestors(of: select))
            if tree.node(id: select)?.kind == .folder { expanded.insert(select) }
            let shown = tree.rows(expanded: expanded)
            if let index = shown.firstIndex(where: { $0.node.id == select }) { cursor.selected = index }
            selectOnArrival = nil
        }
        clampCursor(to: tree, rows: rows)
    }
}
