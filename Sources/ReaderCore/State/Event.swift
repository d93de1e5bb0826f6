import BibModel
import BibreadValues
import ReadingList

/// Something that happened: input from the terminal, or the result of background work.
public enum Event: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
    /// Field groups and counts arrive after the first screen (they read every reference).
    case groupsReady([Group])
    case groupCounts([GroupID: Int])
    case groupMembers(GroupID, members: [Int])
    case searchIndexReady(SearchIndex)
    case sortReady(SortKey, rank: [Int32])
    case marksReady([ReferenceMarks])
    /// The library's keywords, most used first (the keywords prompt's completion), worked out
    /// once per library read.
    case keywordsReady(KeywordVocabulary)
    /// Whose conventions each library file follows (by path): what edits write, what is read,
    /// which static groups the checklist offers. Worked out with the marks.
    case conventionsReady([String: LibraryConventions])
    /// Where linked files are (by path); `opening`: the reference whose files were asked for, to
    /// open it now.
    case filesLocated([String: FileLocation], opening: EntryAddress?)
    /// A document is open; `resumePage` and `resumeScroll` say where it was last read.
    /// `mode`: how this document was last shown (`t`), nil when never chosen. `readElsewhere`:
    /// when that place was reached on another machine, where and when (`read on laptop 2 h ago`).
    case documentOpened(path: String, info: DocumentInfo, resumePage: Int?, resumeScroll: Double, mode: ReadingMode? = nil,
                        readElsewhere: String? = nil)
    /// The page labels and the outline of a document opened with `detailsPending`.
    case documentDetails(path: String, labels: [String], outline: [OutlineEntry])
    case documentNeedsPassword(path: String, wrong: Bool)
    case pageText(path: String, page: Int, mode: ReadingMode, text: String)
    case documentFailed(path: String, message: String)
    /// The next page after (or before) the start that contains the query, going round the
    /// document's end (`wrapped`) when none does before it; nil when no page does.
    case searchResult(path: String, query: String, page: Int?, wrapped: Bool)
    /// The loop's periodic wake-up, when nothing else happened for a while.
    case tick
    case readingRecorded(EntryAddress, time: Double)
    /// A PDF only the remote had is downloading (bytes so far, of total).
    case fetchProgress(path: String, bytes: Int64, total: Int64?)
    /// It is in the cache now, at `local`.
    case fetchFinished(path: String, local: String)
    case fetchFailed(path: String, message: String)
    /// A sync started from the reader: how far it is, and how it ended (an empty summary: a
    /// sync the reader started on its own brought nothing new, and says nothing).
    case syncProgress(done: Int64, total: Int64, file: String)
    case syncFinished(summary: String, libraryChanged: Bool, failed: Bool)
    /// The sync or download started from the reader waits for another sync of the remote to
    /// end; `message` says which.
    case remoteBusy(message: String)
    /// The library was read again (after a sync brought a new .bib).
    case libraryReloaded(Library)
    /// Another program changed these library files on disk (the shell watches them).
    case libraryChangedOnDisk([String])
    /// The bookmark tree as stored; `message` says what changed, `select` a node to show.
    case bookmarksLoaded(SavedBookmarks, message: String?, select: Int64?)
    case bookmarkFailed(message: String)
    /// The page notes of a paper, by page; `message` confirms a note written.
    case notesLoaded(CiteKey, notes: [Int: String], message: String?)
    /// A reading list to import was read and checked (`source` as the user gave it).
    case readingListLoaded(source: String, fallbackName: String, DecodedReadingList)
    case readingListProgress(bytes: Int64)
    case readingListFailed(message: String)
    /// The "open with" menu's lines for an intention.
    case openWithReady(intention: Intention?, items: [MenuItem])
    /// An app was started (`background`: it reads aloud until stopped).
    case handlerStarted(name: String, background: Bool)
    case handlerFinished(message: String, isError: Bool)
    /// The app reading aloud ended (`message` says how, when it matters).
    case listeningStopped(message: String?)
    /// The full-text index's answers for `text:` terms.
    case fullTextResults(FullTextResults)
    case fullTextFailed(message: String)
    /// The best pages, with snippets, of some references found by `text:` terms.
    case fullTextPages(terms: [FullTextTerm], pages: [Int: [FullTextPage]])
    /// Indexing the PDFs: documents done of all, and how it ended.
    case indexProgress(done: Int, total: Int)
    case indexFinished(message: String?)
    // keys: the reader's edits
    /// An edit is written and durable (or the file already said so).
    case editSaved(EditSaved)
    /// An edit could not be written (`id` of its request): the message says why.
    case editFailed(id: Int, message: String)
    /// What `u` would undo (`path`: the file; nil: nothing, and `text` says why).
    case undoDescribed(path: String?, text: String)
    /// `u` was answered: the file is as it was before the edit, or the message says why not.
    case undoFinished(message: String, failed: Bool)
    /// A reference's text as its file has it, for `$EDITOR` (nil: it could not be read; `problem` says why).
    case entryTextLoaded(EntryText?, problem: String?)
    /// The editor ended: the text the user saved (nil: the editor could not run; `problem` says why).
    case entryTextEdited(EntryText, edited: String?, problem: String?)
    /// The open conflicts of a synced library's files.
    case conflictsLoaded([EntryConflict])
    /// `C` settled a conflict (or the message says why not).
    case conflictResolved(message: String, failed: Bool)
    /// A terminating signal (SIGINT, SIGTERM, SIGHUP) arrived.
    case terminate
    /// `sync_every` has passed since the reader opened the library or last asked: time for a
    /// background sync.
    case syncDue
}
