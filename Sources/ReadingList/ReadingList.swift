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

/// A folder: a name and its children, in order.
public struct BookmarkFolder: Sendable, Equatable {
    public var name: String
    public var children: [BookmarkNode]

    public init(name: String, children: [BookmarkNode] = []) {
        self.name = name
        self.children = children
    }
}

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

/// The pages of a paper a bookmark points at.
public struct PageReference: Sendable, Equatable, Hashable {
    /// The paper's cite key.
    public var citeKey: String
    /// The library it is in (a library's name or a .bib file name), when the list says.
    public var library: String?
    /// The first page (1-based), counted in the file: what bookmarks store.
    public var page: Int
    /// The last page, for a range; nil for one page.
    public var lastPage: Int?
    /// The first page's printed label (`xii`, `151`) when it is not `page` itself and was known
    /// (a bookmark made in the reader); nil otherwise. Shown, never used to find the page.
    public var printedPage: String?

    public init(citeKey: String, library: String? = nil, page: Int, lastPage: Int? = nil, printedPage: String? = nil) {
        self.citeKey = citeKey
        self.library = library
        self.page = page
        self.lastPage = lastPage
        self.printedPage = printedPage
    }

    /// The pages from `page` to `lastPage`.
    public var pages: ClosedRange<Int> { page...max(page, lastPage ?? page) }

    /// `p. 12` or `p. 12–14`; the printed page first when it is known and differs from the page
    /// of the file: `p. xii (#12)`, `p. 151 (#1–3)`.
    public var pageLabel: String {
        let range = lastPage.map { $0 > page ? "\(page)–\($0)" : "\(page)" } ?? "\(page)"
        if let printedPage, printedPage != String(page) { return "p. \(printedPage) (#\(range))" }
        return "p. \(range)"
    }
}

/// A bookmark to pages of a paper.
public struct Bookmark: Sendable, Equatable {
    public var name: String
    public var reference: PageReference
    /// Notes for the pages `reference.pages`, in order (empty strings for pages without one);
    /// empty when the list carries no page notes.
    public var notes: [String]

    public init(name: String, reference: PageReference, notes: [String] = []) {
        self.name = name
        self.reference = reference
        self.notes = notes
    }
}

/// A note on its own in the tree (not tied to a page).
public struct Notemark: Sendable, Equatable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
