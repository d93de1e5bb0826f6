import ReadingList

/// One visible row of the bookmarks view (the tree flattened by what is expanded).
public struct BookmarkRow: Sendable, Equatable {
    public let node: SavedNode
    public let depth: Int
}

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

/// A list read and checked, waiting for the user to say whether its page notes come too.
public struct PendingImport: Sendable, Equatable {
    public let decoded: DecodedReadingList
    public let source: String
    public let fallbackName: String
}

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

/// The page-note editor of the reading view (`n`).
public struct NoteEditor: Sendable, Equatable {
    public let key: String
    public let page: Int
    /// The text as it was when the editor opened.
    public let original: String
    public var text: [Character]
    /// The insertion point, an index into `text`.
    public var cursor: Int
    /// Esc was pressed once with unsaved changes: a second Esc discards them. While asked,
    /// only the answers act (Esc, C-s, Enter back to the note, Ctrl-C).
    public var confirmingDiscard = false
    /// Ctrl-C was pressed with unsaved changes: a second Ctrl-C quits without them.
    public var confirmingQuit = false

    public init(key: String, page: Int, text: String) {
        self.key = key
        self.page = page
        original = text
        self.text = Array(text)
        cursor = self.text.count
    }

    public var string: String { String(text) }
    public var isChanged: Bool { string != original }
}

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
