/// The background queues effects run on. In the app each is a dispatch queue of its own
/// (`DispatchJobQueues`), so that interactive work never waits behind bulk work; tests may run
/// them all inline.
enum WorkQueue: Sendable, CaseIterable {
    /// A group's members, the sort, the list's marks, a full-text search, checking the bookmarks:
    /// what a key (or the list) waits for.
    case interactive
    /// Counting every group (first), field groups, loading bookmarks, importing a reading list.
    case bulk
    /// Building the search index.
    case index
    /// A document's pages and searches in it, one after another.
    case documents
    /// Opening PDFs, each on its own: an open that hangs (a file system that stopped answering)
    /// never keeps the next PDF from opening, nor the pages of the one open.
    case openings
    /// Reading the next pages ahead, at low priority.
    case prefetch
    /// Transfers: a download, a sync, loading a reading list.
    case fetches
    /// Bringing the full-text index up to date, at background priority.
    case indexing
    /// Writes of where the reader is (position, reflow or layout, reading times): one after
    /// another, never behind a page being extracted, and finished before the program exits.
    case readingWrites
    /// Bookmarks and notes, which the screen confirms only once written: a few hundred bytes,
    /// one transaction each, never behind long work (a big library's group counts on the bulk
    /// queue kept a bookmark confirmed on screen unwritten for seconds), finished before exit.
    case bookmarkWrites
    /// Edits of the library's files and undo: one at a time, in the order asked for, waited
    /// for before the program exits.
    case libraryWrites
}
