import ReadingList

/// A folder chosen for new bookmarks.
public enum BookmarkFolderChoice: Sendable, Equatable {
    case topLevel
    case folder(Int64)

    /// The folder's id; nil for the top level.
    public var id: Int64? {
        if case .folder(let id) = self { return id }
        return nil
    }
}
