import BibModel
import BibreadValues
import Foundation
import ReadingList

extension AppState {
    // MARK: - Events

    mutating func updateBookmarks(_ event: Event) -> [Effect] {
        switch event {
        case .bookmarksLoaded(let tree, let text, let select):
            bookmarks = tree
            bookmarkedKeys = tree.bookmarkedKeys
            if let text { message = StatusMessage(text) }
            let rows = bookmarkRows
            screen.bookmarks?.treeArrived(tree, select: select, rows: rows)
            return []
        case .bookmarkFailed(let text):
            message = StatusMessage(text, isError: true)
            return []
        case .notesLoaded(let key, let notes, let text):
            if let text { message = StatusMessage(text) }
            guard let view = screen.reading, citeKey(of: view) == key else { return [] }
            screen.reading?.notes = notes
            return []
        case .readingListProgress(let bytes):
            guard screen.bookmarks?.importing != nil else { return [] }
            screen.bookmarks?.importBytes = bytes
            return []
        case .readingListFailed(let text):
            screen.bookmarks?.importing = nil
            message = StatusMessage(text, isError: true)
            return []
        case .readingListLoaded(let source, let fallbackName, let decoded):
            guard screen.bookmarks?.importing == source else { return [] }
            screen.bookmarks?.importing = nil
            message = nil
            if decoded.list.pageNoteCount > 0 {
                screen.pendingImport = PendingImport(decoded: decoded, source: source, fallbackName: fallbackName)
                return []
            }
            return [.readingList(.importReadingList(decoded, fallbackName: fallbackName, includeNotes: false))]
        default:
            return []
        }
    }

    /// Rows of tree shown in the bookmarks view (between the title and the preview).
    var bookmarkRows: Int { max(1, height - 3 - bookmarkPreviewHeight) }

    /// The preview of the selected node under the tree, when the window is tall enough.
    var bookmarkPreviewHeight: Int { height >= 16 ? 5 : 0 }

    /// The rows of the bookmarks view.
    var bookmarkTreeRows: [BookmarkRow] {
        bookmarks.rows(expanded: bookmarksView?.expanded ?? [])
    }

    /// The node under the bookmarks view's cursor.
    var selectedBookmarkRow: BookmarkRow? {
        guard let view = screen.bookmarks else { return nil }
        let rows = bookmarkTreeRows
        return view.cursor.selected < rows.count ? rows[view.cursor.selected] : nil
    }

    /// Whether a bookmark's paper is in the open library.
    func isInLibrary(_ reference: PageReference) -> Bool {
        library.map { !$0.entries(withKey: reference.citeKey).isEmpty } ?? false
    }

    /// Shows the bookmarks view, with a list to import when one was given on the command line.
    public mutating func showBookmarks(importing source: String? = nil) -> [Effect] {
        if screen.bookmarks == nil { screen.bookmarks = BookmarksViewState() }
        searchFocused = false
        guard let source else { return [.bookmarks(.loadBookmarks)] }
        screen.bookmarks?.importing = source
        message = StatusMessage("Reading the list…")
        return [.bookmarks(.loadBookmarks), .readingList(.loadReadingList(source: source))]
    }

    // MARK: - Keys in the bookmarks view

    mutating func handleBookmarks(_ key: Key) -> [Effect] {
        guard let view = screen.bookmarks else { return [] }
        if view.importing != nil, keymap.action(for: key, in: .transfer) == .cancelTransfer {
            screen.bookmarks?.importing = nil
            message = StatusMessage("Stopped reading the list; nothing was imported")
            return [.readingList(.cancelReadingList)]
        }
        guard let action = keymap.action(for: key, in: .bookmarks) else {
            if case .character(let character) = key { message = StatusMessage("'\(character)' does nothing here; press ? for help") }
            return []
        }
        return performBookmarks(action)
    }

    private mutating func performBookmarks(_ action: Action) -> [Effect] {
        let rows = bookmarkTreeRows
        let before = screen.bookmarks?.cursor.selected ?? 0
        let selected = before < rows.count ? rows[before] : nil
        switch action {
        case .help:
            screen.show(.help(scroll: 0))
        case .redraw:
            return [.app(.redrawAll)]
        case .closeBookmarks:
            screen.bookmarks = nil
            return []
        case .openBookmark where selected?.node.kind == .bookmark:
            return selected.map { openBookmark($0.node) } ?? []
        case .openBookmark where selected?.node.kind == .notemark:
            message = StatusMessage(selected?.node.text.map { $0.isEmpty ? "(an empty note)" : $0 } ?? "")
        case .newFolder:
            screen.bookmarksPrompt = .newFolder("")
        case .renameBookmark:
            if let selected { screen.bookmarksPrompt = .rename(id: selected.node.id, text: selected.node.name) }
        case .moveBookmark:
            if let selected { screen.bookmarksPrompt = .moveInto(id: selected.node.id, text: "") }
        case .deleteBookmark:
            if let selected { screen.bookmarksPrompt = .confirmDelete(id: selected.node.id) }
        case .importList:
            screen.bookmarksPrompt = .importSource("")
        default:
            let pageRows = bookmarkRows
            screen.bookmarks?.perform(action, rows: rows, selected: selected, pageRows: pageRows)
        }
        let pageRows = bookmarkRows
        let tree = bookmarks
        screen.bookmarks?.clampCursor(to: tree, rows: pageRows)
        if screen.bookmarks?.cursor.selected != before || [.expandFolder, .collapseFolder, .openBookmark].contains(action) { rememberSelectedFolder() }
        return []
    }

    /// The folder of the selection (the folder itself, or the one holding the bookmark) is
    /// where `m` in the reading view files new bookmarks from now on.
    private mutating func rememberSelectedFolder() {
        guard let row = selectedBookmarkRow else { return }
        let folder = row.node.kind == .folder ? row.node.id : bookmarks.ancestors(of: row.node.id).last
        bookmarkFolder = folder.map { .folder($0) } ?? .topLevel
    }

    /// The wheel scrolls the tree; a click selects a row, a double click opens it.
    mutating func handleBookmarks(_ mouse: MouseEvent) -> [Effect] {
        guard let view = screen.bookmarks, !screen.isOpen(.bookmarksPrompt), !screen.isOpen(.importQuestion) else { return [] }
        let rows = bookmarkTreeRows
        switch mouse.kind {
        case .wheelDown: screen.bookmarks?.cursor.selected += 3
        case .wheelUp: screen.bookmarks?.cursor.selected -= 3
        case .click, .doubleClick:
            let index = view.cursor.top + mouse.y - 1
            guard mouse.y >= 1, mouse.y <= bookmarkRows, index < rows.count else { return [] }
            screen.bookmarks?.cursor.selected = index
            rememberSelectedFolder()
            if mouse.kind == .doubleClick { return performBookmarks(.openBookmark) }
        }
        let pageRows = bookmarkRows
        screen.bookmarks?.cursor.clamp(count: rows.count, rows: pageRows)
        return []
    }

    /// y, n or Esc to the question whether a reading list's page notes are imported too.
    mutating func handleImportQuestion(_ key: Key) -> [Effect] {
        guard let pending = screen.pendingImport else { return [] }
        switch keymap.action(for: key, in: .question) {
        case .yes:
            screen.pendingImport = nil
            return [.readingList(.importReadingList(pending.decoded, fallbackName: pending.fallbackName, includeNotes: true))]
        case .no:
            screen.pendingImport = nil
            return [.readingList(.importReadingList(pending.decoded, fallbackName: pending.fallbackName, includeNotes: false))]
        case .cancel:
            screen.pendingImport = nil
            message = StatusMessage("Nothing was imported")
        default:
            break
        }
        return []
    }

    mutating func handleBookmarksPrompt(_ key: Key) -> [Effect] {
        guard let prompt = screen.bookmarksPrompt else { return [] }
        if case .confirmDelete(let id) = prompt {
            screen.bookmarksPrompt = nil
            // Any answer but yes keeps it.
            guard keymap.action(for: key, in: .question) == .yes else {
                message = StatusMessage("Nothing was deleted")
                return []
            }
            let name = bookmarks.node(id: id).map { "'\($0.name.isEmpty ? $0.label : $0.name)'" } ?? "it"
            return [.bookmarks(.deleteBookmarkNode(id: id, confirmation: "Deleted \(name)"))]
        }
        let action = keymap.action(for: key, in: .prompt)
        var field = TextField(prompt.text)
        if field.apply(action, key: key) {
            screen.bookmarksPrompt = prompt.with(field.text)
            return []
        }
        switch action {
        case .cancel:
            screen.bookmarksPrompt = nil
        case .confirm:
            screen.bookmarksPrompt = nil
            return answer(prompt)
        default:
            break
        }
        return []
    }

    /// Enter in a prompt of the bookmarks view.
    private mutating func answer(_ prompt: BookmarksPrompt) -> [Effect] {
        let text = prompt.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if case .moveInto(let id, _) = prompt {
            guard !SavedBookmarks.names(inPath: text).isEmpty else { return [.bookmarks(.moveBookmarkNode(id: id, folder: nil))] }
            guard let folder = bookmarks.folder(atPath: text) else {
                message = StatusMessage("There is no bookmark folder '\(text)' (a makes one)", isError: true)
                return []
            }
            return [.bookmarks(.moveBookmarkNode(id: id, folder: folder.id))]
        }
        guard !text.isEmpty else { return [] }
        switch prompt {
        case .importSource:
            screen.bookmarks?.importing = text
            screen.bookmarks?.importBytes = 0
            message = StatusMessage("Reading the list…")
            return [.readingList(.loadReadingList(source: text))]
        case .newFolder:
            // Inside the selected folder; beside the selected node otherwise.
            let parent = selectedBookmarkRow.flatMap { row -> Int64? in
                row.node.kind == .folder ? row.node.id : bookmarks.ancestors(of: row.node.id).last
            }
            return [.bookmarks(.addBookmarkFolder(name: text, parent: parent))]
        case .rename(let id, _):
            return [.bookmarks(.renameBookmarkNode(id: id, name: text))]
        case .confirmDelete, .moveInto:
            return []
        }
    }

    /// Opens a bookmark's paper at its first page.
    mutating func openBookmark(_ node: SavedNode) -> [Effect] {
        guard let reference = node.reference else { return [] }
        guard let entry = library?.entries(withKey: reference.citeKey).first else {
            let elsewhere = reference.library.map { " (the list names the library \($0))" } ?? ""
            message = StatusMessage("\(reference.citeKey) is not in this library\(elsewhere)", isError: true)
            return []
        }
        return openEntry(entry, atPage: .physical(reference.page))
    }

    // MARK: - Bookmarks and notes in the reading view

    /// `m`: bookmarks the page shown, or removes its own one-page bookmark.
    mutating func toggleBookmark() -> [Effect] {
        guard let view = reading, view.info != nil, !labelsBeingRead() else { return [] }
        let existing = bookmarks.bookmarks(citeKey: citeKey(of: view).text, page: view.page).first {
            $0.reference?.page == view.page && ($0.reference?.lastPage ?? view.page) == view.page
        }
        if let existing {
            return [.bookmarks(.deleteBookmarkNode(id: existing.id, confirmation: "Removed the bookmark at \(AppState.pageName(view.page, info: view.info))"))]
        }
        // Into the folder chosen last (if it is still there); asked when there are folders to choose.
        if let choice = bookmarkFolder, choice.id.map({ bookmarks.node(id: $0)?.kind == .folder }) ?? true {
            return addBookmark(in: choice)
        }
        guard bookmarks.allNodes.contains(where: { $0.kind == .folder }) else { return addBookmark(in: .topLevel) }
        screen.readingPrompt = .bookmarkFolder("")
        return []
    }

    /// Bookmarks the page shown in `folder`; the message comes when the bookmark is written.
    mutating func addBookmark(in folder: BookmarkFolderChoice) -> [Effect] {
        guard let view = reading else { return [] }
        let key = citeKey(of: view).text
        let libraryName = libraryPaths.count == 1 ? (libraryPaths[0] as NSString).lastPathComponent : nil
        let place = folder.id.map { " in \(bookmarks.path(of: $0))" } ?? ""
        return [.bookmarks(.addBookmark(PageReference(citeKey: key, library: libraryName, page: view.page,
                                           printedPage: view.info?.distinctLabel(ofPage: view.page)), name: view.title, folder: folder.id,
                             confirmation: "Bookmarked \(AppState.pageName(view.page, info: view.info))\(place) (b in the library shows bookmarks)"))]
    }

    /// Closes the note editor, keeping its text as the page's note; the message comes when the
    /// note is written.
    private mutating func saveNote(_ editor: NoteEditor) -> [Effect] {
        screen.noteEditor = nil
        let text = editor.string.trimmingCharacters(in: .whitespacesAndNewlines)
        screen.reading?.notes[editor.page] = text.isEmpty ? nil : text
        guard editor.isChanged else { return [] }
        let page = AppState.pageName(editor.page, info: screen.reading?.info)
        return [.bookmarks(.saveNote(editor.citeKey, page: editor.page, text: text,
                          confirmation: text.isEmpty ? "Deleted the note on \(page)" : "Saved the note on \(page)"))]
    }

    /// The cite key of the paper read (the view holds its address, `key#2` for a duplicate).
    func citeKey(of view: ReadingState) -> CiteKey {
        library?.entry(at: view.address)?.citeKey ?? view.address.citeKey
    }

    /// `n`: opens the page's note in the editor.
    mutating func openNoteEditor() {
        guard let view = screen.reading, view.info != nil else { return }
        screen.noteEditor = NoteEditor(citeKey: citeKey(of: view), page: view.page, text: view.notes[view.page] ?? "")
    }

    /// The question the note editor asks before its changes are lost.
    static let discardQuestion = "The note has changes: C-s saves them, Esc again discards them, Enter goes back to the note"
    static let quitQuestion = "The note has changes: C-c again quits without them, C-s saves them and quits, Esc goes back to the note"

    /// Ctrl-C: quits from any view, overlay or prompt; a note with unsaved changes asks first.
    mutating func quitFromAnywhere() -> [Effect] {
        if let editor = screen.noteEditor, editor.isChanged, !editor.confirmingQuit {
            screen.noteEditor?.confirmingQuit = true
            screen.noteEditor?.confirmingDiscard = false
            message = StatusMessage(AppState.quitQuestion)
            return []
        }
        var effects: [Effect] = []
        if let view = screen.reading, view.info != nil, view.pageText != nil { effects.append(savePositionEffect(view)) }
        isQuitting = true
        return effects + [.app(.saveSession), .app(.quit)]
    }

    /// The note editor's keys: its own scope, the text field's, and while a question is
    /// asked, only the question's answers.
    mutating func handleNoteEditor(_ key: Key) -> [Effect] {
        guard let editor = screen.noteEditor else { return [] }
        let action = keymap.action(for: key, in: editor.scope)
        if editor.confirmingQuit {
            if action == .saveNote { return saveNote(editor) + quitFromAnywhere() }
            if action == .cancel || action == .confirm {
                screen.noteEditor?.confirmingQuit = false
            } else {
                message = StatusMessage(AppState.quitQuestion)
            }
            return []
        }
        switch action {
        case .saveNote:
            return saveNote(editor)
        case .cancel where editor.confirmingDiscard:
            screen.noteEditor = nil
            message = StatusMessage("The note's changes were discarded")
        case .confirm where editor.confirmingDiscard:
            screen.noteEditor?.confirmingDiscard = false
        case _ where editor.confirmingDiscard:
            // While the question is shown, typing never goes into the note.
            message = StatusMessage(AppState.discardQuestion)
        case .cancel:
            if editor.isChanged {
                screen.noteEditor?.confirmingDiscard = true
                message = StatusMessage(AppState.discardQuestion)
            } else {
                screen.noteEditor = nil
            }
        default:
            _ = screen.noteEditor?.field.apply(action, key: key)
        }
        return []
    }
}
