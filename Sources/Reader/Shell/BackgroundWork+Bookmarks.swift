import BibModel
import BibreadServices
import ReaderCore
import ReadingList
import SyncEngine

/// The bookmark tree and page notes in the reading store.
extension BackgroundWork {
    /// Reads or writes the bookmark tree and the notes; a write's confirmation comes once it is committed.
    public func perform(_ effect: BookmarkEffect, post: (Event) -> Void) {
        // Without a store (said at start-up) there is nothing to show and nothing is kept: only
        // what the user asked to keep says so.
        let quiet: Bool
        switch effect {
        case .loadBookmarks, .checkBookmarks, .loadNotes: quiet = true
        case .addBookmark, .addBookmarkFolder, .renameBookmarkNode, .deleteBookmarkNode, .moveBookmarkNode, .saveNote: quiet = false
        }
        withStore(quietly: quiet, post: post) { store in
            switch effect {
            case .loadBookmarks:
                post(.bookmarksLoaded(try store.savedBookmarks(), message: nil, select: nil))
            case .checkBookmarks:
                // Another bibread changed the store (a bookmark added from a shell): show it.
                if try store.changedElsewhere() { post(.bookmarksLoaded(try store.savedBookmarks(), message: nil, select: nil)) }
            case .addBookmark(let reference, let name, let folder, let confirmation):
                let id = try store.addBookmark(named: name, reference: reference, in: folder, at: clock())
                post(.bookmarksLoaded(try store.savedBookmarks(), message: confirmation, select: id))
            case .moveBookmarkNode(let id, let folder):
                try store.move(node: id, into: folder)
                let tree = try store.savedBookmarks()
                let place = folder.map { "the folder \(tree.path(of: $0))" } ?? "the top level"
                post(.bookmarksLoaded(tree, message: "Moved '\(tree.node(id: id)?.label ?? "")' into \(place)", select: id))
            case .addBookmarkFolder(let name, let parent):
                let id = try store.addFolder(named: name, in: parent, at: clock())
                post(.bookmarksLoaded(try store.savedBookmarks(), message: "Made the folder \(name)", select: id))
            case .renameBookmarkNode(let id, let name):
                try store.rename(node: id, to: name)
                post(.bookmarksLoaded(try store.savedBookmarks(), message: "Renamed to \(name)", select: id))
            case .deleteBookmarkNode(let id, let confirmation):
                try store.delete(node: id)
                post(.bookmarksLoaded(try store.savedBookmarks(), message: confirmation, select: nil))
            case .loadNotes(let key):
                post(.notesLoaded(key, notes: try store.notes(citeKey: key.text), message: nil))
            case .saveNote(let key, let page, let text, let confirmation):
                try store.setNote(citeKey: key.text, page: page, text: text, at: clock())
                post(.notesLoaded(key, notes: try store.notes(citeKey: key.text), message: confirmation))
            }
        }
    }

    /// Runs `body` with the store; says when there is none (unless `quietly`) and when it fails.
    func withStore(quietly: Bool = false, post: (Event) -> Void, _ body: (ReadingStore) throws -> Void) {
        guard let store else {
            if !quietly { post(.bookmarkFailed(message: "Bookmarks and notes cannot be kept: the state store could not be opened")) }
            return
        }
        do {
            try body(store)
        } catch {
            post(.bookmarkFailed(message: "Bookmarks: \(ErrorText.plain(error))"))
        }
    }

    func importReadingList(_ decoded: DecodedReadingList, fallbackName: String, includeNotes: Bool, into store: ReadingStore,
                                   post: (Event) -> Void) throws {
        let summary = try store.importList(decoded.list, fallbackName: fallbackName, includeNotes: includeNotes, at: clock())
        var text = "Imported '\(summary.folderName)': \(summary.bookmarks) bookmark\(summary.bookmarks == 1 ? "" : "s")"
        if includeNotes {
            text += ", \(summary.notesAdded) page note\(summary.notesAdded == 1 ? "" : "s")"
            if summary.notesAlreadyThere > 0 { text += " (\(summary.notesAlreadyThere) already in your notes)" }
        }
        let missing = Set(decoded.list.bookmarks.map(\.reference.citeKey).filter { library.entries(withKey: $0).isEmpty })
        if !missing.isEmpty { text += "; \(missing.count) cite key\(missing.count == 1 ? " is" : "s are") not in this library" }
        post(.bookmarksLoaded(try store.savedBookmarks(), message: text, select: summary.folderID))
    }
}
