import BibreadValues
import ReadingList

extension SavedBookmarks {
    /// The rows shown: each top-level node, and the children of expanded folders.
    func rows(expanded: Set<Int64>) -> [BookmarkRow] {
        var rows: [BookmarkRow] = []
        func add(_ nodes: [SavedNode], depth: Int) {
            for node in nodes {
                rows.append(BookmarkRow(node: node, depth: depth))
                if node.kind == .folder && expanded.contains(node.id) { add(node.children, depth: depth + 1) }
            }
        }
        add(nodes, depth: 0)
        return rows
    }

    /// The ids of the folders from the top down to the node `id` (not included).
    func ancestors(of id: Int64) -> [Int64] {
        ancestorNodes(of: id).map(\.id)
    }

    /// The number of bookmarks in a folder and its sub-folders.
    static func bookmarkCount(_ nodes: [SavedNode]) -> Int {
        nodes.reduce(0) { $0 + ($1.kind == .bookmark ? 1 : bookmarkCount($1.children)) }
    }
}
