/// Work `update` asks the shell to do; results come back as events. Effects come in families,
/// by where they run and what they touch: the shell's `EffectRoute` says, for every case, whether
/// the loop does it itself or which background queue does (and which job it starts or cancels).
public enum Effect: Sendable, Equatable {
    /// The whole library: groups, counts, the search index, the sort, the list marks.
    case library(LibraryEffect)
    /// A PDF being read: opening it, its pages, finding words in it.
    case document(DocumentEffect)
    /// Where the reader is and what was read, written to the reading store.
    case reading(ReadingEffect)
    /// The bookmark tree and page notes in the reading store.
    case bookmarks(BookmarkEffect)
    /// Reading lists: loading one (a job of its own), importing it.
    case readingList(ReadingListEffect)
    /// The library's remote: downloading one file, syncing (each a job of its own).
    case sync(SyncEffect)
    /// The full-text index of the library's PDFs.
    case fullText(FullTextEffect)
    /// The apps of the "open with" menu and the clipboard.
    case handlers(HandlerEffect)
    /// Writes of the library's files: edits, in order, and undo (one serial queue).
    case editing(EditEffect)
    /// What the loop does itself: the session file, reloading the library, the screen, quitting.
    case app(AppEffect)
}
