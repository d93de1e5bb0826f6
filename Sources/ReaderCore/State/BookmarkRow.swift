import BibreadValues
import ReadingList

/// One visible row of the bookmarks view (the tree flattened by what is expanded).
public struct BookmarkRow: Sendable, Equatable {
    public let node: SavedNode
    public let depth: Int
}
