import BibModel
import BibreadValues
import Foundation
import ReadingList

/// Everything the screen shows, as a value: `update` changes it, `render` draws it.
public struct AppState: Sendable {
    // Terminal
    public var width: Int
    public var height: Int

    // Library
    public var library: Library?
    public var libraryPaths: [String]
    public var libraryTitle: String
    /// Whether the library is a synced remote's copy (it has the group On the remote only).
    public var librarySynced = false
    public let keymap: Keymap
    /// The library's keywords, most used first, for the keywords prompt's completion; nil while
    /// they are collected (once per library read).
    public var keywordVocabulary: KeywordVocabulary?
    /// Whose conventions each library file follows (by path), once worked out with the marks
    /// (empty until then): a Zotero export is refused before anything is typed.
    public var fileConventions: [String: LibraryConventions] { editing.conventions ?? [:] }

    // Groups
    public var groups: [Group] = []
    public var expandedGroups: Set<GroupID> = []
    public var groupRows: [GroupRow] = []
    public var groupCursor = ListCursor()
    public var groupCounts: [GroupID: Int] = [:]
    public var activeGroup = GroupID.all
    /// Members of the active group (positions in `library.entries`); nil while they are worked out.
    public var groupMembers: [Int]?

    // Search
    public var searchText = ""
    public var searchIndex: SearchIndex?
    public var searchMatches: [Int]?
    public var searchError: String?
    /// Answers for the search's `text:` terms (the PDFs' index), and the terms asked for.
    public var fullText: FullTextResults?
    public var fullTextPending: [FullTextTerm]?
    /// References whose best pages were asked for and have not arrived.
    var fullTextPagesPending: Set<Int> = []
    /// The full-text index being brought up to date in the background.
    public var indexing: IndexingState?

    // Sort
    public var sort: SortKey = .author
    public var sortDescending = false
    /// Rank of each entry in the current sort (ascending); nil while it is worked out.
    public var sortRank: [Int32]?
    public var lastRead: [EntryAddress: Double] = [:]
    /// Until the first sort arrives the list is in file order; then the top row is selected.
    var awaitingFirstSort = true

    // List
    public var visible: [Int] = []
    public var listCursor = ListCursor()
    /// The reference to select once the list is known (restored from the last session).
    public var pendingSelection: EntryAddress?
    public var marks: [ReferenceMarks]?

    // Details
    public var detailsScroll = 0

    // Focus
    public var focus: Pane = .list
    public var searchFocused = false

    /// What is on screen: the view, and the overlays over it.
    public var screen = ScreenStack()

    // Work in the background
    public var fetching: FetchState?
    /// A sync started from the reader: bytes so far and in all, and the file in progress.
    public var syncing: (done: Int64, total: Int64, file: String)?
    /// The library's remote and what the reader may do with it on its own (issue 30).
    public var backgroundSync = BackgroundSyncSettings()
    /// The sync under way: the group whose PDFs it brings, and whether the reader started it on
    /// its own (on opening, every `sync_every`) rather than F5.
    var runningSync: (group: GroupID?, automatic: Bool)?
    /// What the sync or download under way waits for (another sync of the remote), until it starts.
    public var waitingForRemote: String?
    /// The app reading aloud in the background (its name), while it does.
    public var listening: String?
    /// `R` asked for the library to be read again: the status line says so when it is.
    var reloadAsked = false
    /// The library files another program changed, while they are read again.
    var changedOnDisk: [String]?

    // Bookmarks
    /// The user's bookmark tree (empty until it is loaded).
    public var bookmarks = SavedBookmarks()
    /// Where `m` in the reading view files a new bookmark: the folder selected last in the
    /// bookmarks view, or the one named when asked; nil until then (`m` asks when folders exist).
    public var bookmarkFolder: BookmarkFolderChoice?
    /// Lower-cased cite keys with a bookmark (the ★ mark).
    public var bookmarkedKeys: Set<String> = []

    /// The edits being written, and what waits for them.
    var editing = EditingState()

    public var message: StatusMessage?
    public var isQuitting = false
    /// The papers of the link bibread was opened with (the group "From link"), and what for.
    public var linkTargets: [PaperReference]?
    public var linkIntention: Intention = .read

    /// Where linked files are on this machine (by path), as the shell found them: update and
    /// render never look at the disk. A file not in it has not been looked for yet.
    public var fileLocations: [String: FileLocation] = [:]
    /// A reference to open once its files are located (its address), at the page asked for.
    var openingOnceLocated: (address: EntryAddress, page: PageRequest?)?

    /// A state for `library` (nil: nothing to open; the screen says how to open one).
    public init(library: Library?, paths: [String], width: Int, height: Int, keymap: Keymap = Keymap()) {
        self.library = library
        self.libraryPaths = paths
        self.width = width
        self.height = height
        self.keymap = keymap
        libraryTitle = paths.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: " + ")
        if let library {
            groupMembers = Array(library.entries.indices)
            visible = Array(library.entries.indices)
        }
    }

    /// The entry under the list's selection.
    public var selectedEntry: Entry? {
        guard let library, listCursor.selected < visible.count else { return nil }
        return library.entries[visible[listCursor.selected]]
    }

    /// The reading view, while a PDF is read.
    public var reading: ReadingState? { screen.reading }

    /// The bookmarks view, while shown or under a reading view opened from it.
    public var bookmarksView: BookmarksViewState? { screen.bookmarks }

    /// The total number of references.
    public var totalCount: Int { library?.entries.count ?? 0 }
}
