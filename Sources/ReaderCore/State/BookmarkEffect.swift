import BibModel
import ReadingList

/// Reads and writes of the bookmark tree and the page notes.
public enum BookmarkEffect: Sendable, Equatable {
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
    case loadNotes(CiteKey)
    /// Set a page's note (empty text deletes it); `confirmation` is shown once it is committed.
    case saveNote(CiteKey, page: Int, text: String, confirmation: String)
}
