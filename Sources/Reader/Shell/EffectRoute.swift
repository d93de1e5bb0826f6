import BibreadValues
import ReaderCore
/// Where a background effect runs. Every case of every family names its route (no `default:`),
/// so a new effect cannot run anywhere by accident. The loop's own effects (`AppEffect`,
/// `HandlerEffect`) have none: `ReaderLoop` performs them.
enum EffectRoute: Sendable, Equatable {
    /// On this queue.
    case queue(WorkQueue)
    /// A job that can be stopped on its own, on this queue: its token is made when it is asked
    /// for, so that a stop that comes while it waits on the queue stops it too.
    case job(BackgroundJob, on: WorkQueue)
    /// At once, on the loop's thread: stopping a job, not behind the work it stops.
    case atOnce
    /// On this queue; once the reader is quitting, at once on the loop's thread (what it reports
    /// is dropped), so that the write is done before the program ends.
    case writeKeptOnQuit(WorkQueue)
}

extension LibraryEffect {
    var route: EffectRoute {
        switch self {
        case .loadFieldGroups, .countGroups, .collectKeywords: .queue(.bulk)
        // The marks: not behind the group counts (they were, and came ~250 ms later for it).
        case .computeGroupMembers, .computeSort, .locateFiles, .computeMarks: .queue(.interactive)
        case .loadConflicts: .queue(.bulk)
        case .buildSearchIndex: .queue(.index)
        }
    }
}

extension DocumentEffect {
    var route: EffectRoute {
        switch self {
        case .openDocument, .readDocumentDetails: .queue(.openings)
        case .extractPage, .findInDocument: .queue(.documents)
        }
    }
}

extension ReadingEffect {
    var route: EffectRoute {
        switch self {
        case .savePosition: .writeKeptOnQuit(.readingWrites)
        case .saveReadingMode, .recordReading: .queue(.readingWrites)
        }
    }
}

extension BookmarkEffect {
    var route: EffectRoute {
        switch self {
        case .loadBookmarks: .queue(.bulk)
        case .checkBookmarks: .queue(.interactive)
        case .addBookmark, .addBookmarkFolder, .renameBookmarkNode, .deleteBookmarkNode, .moveBookmarkNode, .loadNotes:
            .queue(.bookmarkWrites)
        case .saveNote: .writeKeptOnQuit(.bookmarkWrites)
        }
    }
}

extension ReadingListEffect {
    var route: EffectRoute {
        switch self {
        case .loadReadingList: .job(.readingList, on: .fetches)
        case .cancelReadingList: .atOnce
        case .importReadingList: .queue(.bulk)
        }
    }
}

extension SyncEffect {
    var route: EffectRoute {
        switch self {
        case .fetchFile: .job(.download, on: .fetches)
        case .syncLibrary, .syncInBackground: .job(.sync, on: .fetches)
        case .cancelFetch, .cancelSync: .atOnce
        // Before the quit that follows it: the detached sync must be started by then.
        case .endSyncForQuit: .atOnce
        }
    }
}

extension EditEffect {
    var route: EffectRoute {
        switch self {
        // Before the effects after it, which ask the background work about the edited entry.
        case .showEdited: .atOnce
        case .write, .describeUndo, .undo, .loadEntryText, .resolveConflict: .queue(.libraryWrites)
        }
    }
}

extension FullTextEffect {
    var route: EffectRoute {
        switch self {
        case .updateFullTextIndex: .job(.indexing, on: .indexing)
        case .searchFullText, .loadFullTextPages: .queue(.interactive)
        }
    }
}
