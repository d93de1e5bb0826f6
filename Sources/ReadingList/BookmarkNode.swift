/// One node of the tree.
public enum BookmarkNode: Sendable, Equatable {
    case folder(BookmarkFolder)
    case bookmark(Bookmark)
    case notemark(Notemark)

    /// The node's readable name.
    public var name: String {
        switch self {
        case .folder(let folder): return folder.name
        case .bookmark(let bookmark): return bookmark.name
        case .notemark(let notemark): return notemark.name
        }
    }
}
