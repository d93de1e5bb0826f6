import ReadingList

/// A one-line prompt at the bottom of the bookmarks view.
public enum BookmarksPrompt: Sendable, Equatable {
    /// `i`: where to import a list from (a file, an http(s) URL or a bibread:// link).
    case importSource(String)
    /// `a`: the name of a new folder.
    case newFolder(String)
    /// `r`: a node's new name.
    case rename(id: Int64, text: String)
    /// `m`: the path of the folder to move a node into (empty: the top level).
    case moveInto(id: Int64, text: String)
    /// `d`: delete this node (y/n).
    case confirmDelete(id: Int64)

    /// Whether the prompt is a y/n question rather than a line to type.
    var isQuestion: Bool {
        if case .confirmDelete = self { return true }
        return false
    }

    var text: String {
        switch self {
        case .importSource(let text), .newFolder(let text), .rename(_, let text), .moveInto(_, let text): return text
        case .confirmDelete: return ""
        }
    }

    func with(_ text: String) -> BookmarksPrompt {
        switch self {
        case .importSource: return .importSource(text)
        case .newFolder: return .newFolder(text)
        case .rename(let id, _): return .rename(id: id, text: text)
        case .moveInto(let id, _): return .moveInto(id: id, text: text)
        case .confirmDelete: return self
        }
    }
}
