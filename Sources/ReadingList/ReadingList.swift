/// A reading list: a tree of folders, bookmarks to pages of papers and notemarks, as shared
/// between readers (XML plist, binary plist, JSON, or a `bibread://bookmarks?` link).
///
/// The shape follows a mobile reading app's bookmark interchange, with verses replaced by pages:
/// every node is a dictionary with `Class` (`Folder`, `Bookmark`, `Notemark`) and `Name`;
/// folders have `Children`, notemarks `Text`, bookmarks a `Reference` (`CiteKey`, `Library`,
/// `Page`, `LastPage`) and, when the root says `IncludesPageNotes` = `YES`, `Notes` (one per page).
public struct ReadingList: Sendable, Equatable {
    /// The root folder (its name is the list's title).
    public var root: BookmarkFolder
    /// Whether the bookmarks' page notes are part of the list (`IncludesPageNotes` = `YES`).
    public var includesPageNotes: Bool

    public init(root: BookmarkFolder, includesPageNotes: Bool = false) {
        self.root = root
        self.includesPageNotes = includesPageNotes
    }

    /// Every bookmark of the tree, depth first, in order.
    public var bookmarks: [Bookmark] {
        var result: [Bookmark] = []
        func collect(_ folder: BookmarkFolder) {
            for child in folder.children {
                switch child {
                case .folder(let sub): collect(sub)
                case .bookmark(let bookmark): result.append(bookmark)
                case .notemark: break
                }
            }
        }
        collect(root)
        return result
    }

    /// The number of page notes the list carries (non-empty ones).
    public var pageNoteCount: Int {
        guard includesPageNotes else { return 0 }
        return bookmarks.reduce(0) { $0 + $1.notes.filter { !$0.isEmpty }.count }
    }
}
