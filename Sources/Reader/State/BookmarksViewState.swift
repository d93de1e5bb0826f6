import ReadingList

/// The bookmarks view: the user's tree of folders, bookmarks and notemarks.
public struct BookmarksViewState: Sendable, Equatable {
    public var expanded: Set<Int64> = []
    public var cursor = ListCursor()
    public var prompt: BookmarksPrompt?
    /// The list being downloaded or read for import (its source), while it is.
    public var importing: String?
    public var importBytes: Int64 = 0
    /// A list waiting for the notes question.
    public var pendingImport: PendingImport?
    /// The node to select once the tree arrives (a folder just made or imported).
    public var selectOnArrival: Int64?

    public init() {}
}
