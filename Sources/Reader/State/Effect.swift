import BibModel
import BibreadServices
import OpenWith
import ReadingList

/// Work `update` asks the shell to do; results come back as events.
public enum Effect: Sendable, Equatable {
    case loadFieldGroups
    case countGroups([String])
    case computeGroupMembers(path: String)
    case buildSearchIndex
    case computeSort(SortKey)
    /// Work out the list marks, and where every linked file is (`filesLocated`).
    case computeMarks
    /// Find where these files are, to open the reference at `opening` once they are located.
    case locateFiles([LinkedFile], opening: String)
    case openDocument(path: String, password: String?)
    case extractPage(path: String, page: Int, mode: ReadingMode)
    /// Find the query in the pages after `fromPage` (or before it, when not `forward`), going
    /// round the end back to `fromPage` itself; a page matches when its lines, as the reading
    /// view shows them in `mode` at `width` columns, hold the query.
    case findInDocument(path: String, query: String, fromPage: Int, forward: Bool, mode: ReadingMode, width: Int)
    /// Save where the reader is in a document (page, and 0…1 down the page).
    case savePosition(path: String, page: Int, scroll: Double)
    /// Remember how a document is shown (`t`), for the next time it is opened.
    case saveReadingMode(path: String, mode: ReadingMode)
    /// Write the session (library, group, selection, sort) to the state file.
    case saveSession
    case recordReading(key: String)
    /// Download a linked file that only the library's remote has.
    case fetchFile(path: String)
    case cancelFetch
    /// Sync the library's remote in the background: the .bib, and the PDFs of `group` (nil:
    /// none, since `shownGroup`, the group on screen, is a built-in one).
    case syncLibrary(group: String?, shownGroup: String)
    /// Read the library's files again (a sync changed them).
    case reloadLibrary
    /// Read the bookmark tree from the store.
    case loadBookmarks
    /// Add a bookmark at the end of the folder `folder` (nil: the top level); `confirmation` is
    /// shown once the write is committed, never before.
    case addBookmark(PageReference, name: String, folder: Int64?, confirmation: String)
    case addBookmarkFolder(name: String, parent: Int64?)
    case renameBookmarkNode(id: Int64, name: String)
    /// Delete a node; `confirmation` is shown once the deletion is committed.
    case deleteBookmarkNode(id: Int64, confirmation: String)
    /// Move a node to the end of the folder `folder` (nil: the top level).
    case moveBookmarkNode(id: Int64, folder: Int64?)
    /// Read the bookmark tree again if another program changed the store since it was read.
    case checkBookmarks
    case loadNotes(key: String)
    /// Set a page's note (empty text deletes it); `confirmation` is shown once it is committed.
    case saveNote(key: String, page: Int, text: String, confirmation: String)
    /// Read (or download) a reading list and check it; it arrives as `readingListLoaded`.
    case loadReadingList(source: String)
    case cancelReadingList
    /// Add a checked list to the tree, with its page notes or without.
    case importReadingList(DecodedReadingList, fallbackName: String, includeNotes: Bool)
    /// Work out the "open with" menu for these values (which apps are installed).
    case prepareOpenWith(intention: Intention?, values: HandlerValues)
    /// Run an app of the menu (`executable` as the menu found it).
    case runHandler(HandlerEntry, executable: String?, values: HandlerValues)
    /// Stop the app reading aloud.
    case stopListening
    /// Put text on the clipboard: the terminal's (OSC 52), and the desktop's when there is one.
    case copyToClipboard(text: String, what: String)
    /// Bring the full-text index up to date with the library's PDFs (new and changed ones read).
    case updateFullTextIndex
    /// Look `text:` terms up in the full-text index.
    case searchFullText([FullTextTerm])
    /// The best pages of these references (positions) for the terms: the ones on screen.
    case loadFullTextPages([FullTextTerm], positions: [Int])
    case redrawAll
    case quit
}
