import BibModel
import BibreadServices
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
            if var view = bookmarksView {
                if let select = select ?? view.selectOnArrival {
                    view.expanded.formUnion(tree.ancestors(of: select))
                    if tree.node(id: select)?.kind == .folder { view.expanded.insert(select) }
                    let rows = tree.rows(expanded: view.expanded)
                    if let index = rows.firstIndex(where: { $0.node.id == select }) { view.cursor.selected = index }
                    view.selectOnArrival = nil
                }
                view.cursor.clamp(count: tree.rows(expanded: view.expanded).count, rows: bookmarkRows)
                bookmarksView = view
            }
            return []
        case .bookmarkFailed(let text):
            message = StatusMessage(text, isError: true)
            return []
        case .notesLoaded(let key, let notes, let text):
            if let text { message = StatusMessage(text) }
            guard var view = reading, view.key == key else { return [] }
            view.notes = notes
            reading = view
            return []
        case .readingListProgress(let bytes):
            guard bookmarksView?.importing != nil else { return [] }
            bookmarksView?.importBytes = bytes
            return []
        case .readingListFailed(let text):
            bookmarksView?.importing = nil
            message = StatusMessage(text, isError: true)
            return []
        case .readingListLoaded(let source, let fallbackName, let decoded):
            guard bookmarksView?.importing == source else { return [] }
            bookmarksView?.importing = nil
            message = nil
            if decoded.list.pageNoteCount > 0 {
                bookmarksView?.pendingImport = PendingImport(decoded: decoded, source: source, fallbackName: fallbackName)
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
        guard let view = bookmarksView else { return nil }
        let rows = bookmarkTreeRows
        return view.cursor.selected < rows.count ? rows[view.cursor.selected] : nil
    }

    /// Whether a bookmark's paper is in the open library.
    func isInLibrary(_ reference: PageReference) -> Bool {
        library.map { !$0.entries(withKey: reference.citeKey).isEmpty } ?? false
    }

    /// Shows the bookmarks view, with a list to import when one was given on the command line.
    public mutating func showBookmarks(importing source: String? = nil) -> [Effect] {
        if bookmarksView == nil { bookmarksView = BookmarksViewState() }
        searchFocused = false
        guard let source else { return [.bookmarks(.loadBookmarks)] }
        bookmarksView?.importing = source
        message = StatusMessage("Reading the list…")
        return [.bookmarks(.loadBookmarks), .readingList(.loadReadingList(source: source))]
    }

    // MARK: - Keys in the bookmarks view

    mutating func handleBookmarks(_ key: Key) -> [Effect] {
        guard var view = bookmarksView else { return [] }
        if let pending = view.pendingImport {
            switch key {
            case .character("y"), .character("Y"):
                view.pendingImport = nil
                bookmarksView = view
                return [.readingList(.importReadingList(pending.decoded, fallbackName: pending.fallbackName, includeNotes: true))]
            case .character("n"), .character("N"):
                view.pendingImport = nil
                bookmarksView = view
                return [.readingList(.importReadingList(pending.decoded, fallbackName: pending.fallbackName, includeNotes: false))]
            case .escape, .control("g"):
                view.pendingImport = nil
                bookmarksView = view
                message = StatusMessage("Nothing was imported")
            default:
                break
            }
            return []
        }
        if let prompt = view.prompt { return handleBookmarksPrompt(prompt, key: key) }
        if view.importing != nil, key == .escape {
            view.importing = nil
            bookmarksView = view
            message = StatusMessage("Stopped reading the list; nothing was imported")
            return [.readingList(.cancelReadingList)]
        }
        let rows = bookmarkTreeRows
        let before = view.cursor.selected
        let selected = before < rows.count ? rows[before] : nil
        guard let action = keymap.action(for: key, in: .bookmarks) else {
            if case .character(let character) = key { message = StatusMessage("'\(character)' does nothing here; press ? for help") }
            return []
        }
        switch action {
        case .moveDown: view.cursor.selected += 1
        case .moveUp: view.cursor.selected -= 1
        case .pageDown: view.cursor.selected += max(1, bookmarkRows - 1)
        case .pageUp: view.cursor.selected -= max(1, bookmarkRows - 1)
        case .halfPageDown: view.cursor.selected += max(1, bookmarkRows / 2)
        case .halfPageUp: view.cursor.selected -= max(1, bookmarkRows / 2)
        case .moveFirst: view.cursor.selected = 0
        case .moveLast: view.cursor.selected = rows.count - 1
        case .help:
            showingHelp = true
            helpScroll = 0
        case .redraw:
            return [.app(.redrawAll)]
        case .closeBookmarks:
            bookmarksView = nil
            return []
        case .expandFolder:
            if let selected, selected.node.kind == .folder { view.expanded.insert(selected.node.id) }
        case .collapseFolder:
            guard let selected else { break }
            if selected.node.kind == .folder && view.expanded.contains(selected.node.id) {
                view.expanded.remove(selected.node.id)
            } else if selected.depth > 0, let parent = rows[..<view.cursor.selected].lastIndex(where: { $0.depth < selected.depth }) {
                view.cursor.selected = parent
            }
        case .openBookmark:
            guard let selected else { break }
            switch selected.node.kind {
            case .folder:
                if view.expanded.contains(selected.node.id) {
                    view.expanded.remove(selected.node.id)
                } else {
                    view.expanded.insert(selected.node.id)
                }
            case .notemark:
                message = StatusMessage(selected.node.text.map { $0.isEmpty ? "(an empty note)" : $0 } ?? "")
            case .bookmark:
                bookmarksView = view
                return openBookmark(selected.node)
            }
        case .newFolder:
            view.prompt = .newFolder("")
        case .renameBookmark:
            if let selected { view.prompt = .rename(id: selected.node.id, text: selected.node.name) }
        case .moveBookmark:
            if let selected { view.prompt = .moveInto(id: selected.node.id, text: "") }
        case .deleteBookmark:
            if let selected { view.prompt = .confirmDelete(id: selected.node.id) }
        case .importList:
            view.prompt = .importSource("")
        default:
            break
        }
        view.cursor.clamp(count: bookmarks.rows(expanded: view.expanded).count, rows: bookmarkRows)
        bookmarksView = view
        if view.cursor.selected != before || [.expandFolder, .collapseFolder, .openBookmark].contains(action) { rememberSelectedFolder() }
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
        guard var view = bookmarksView, view.prompt == nil, view.pendingImport == nil else { return [] }
        let rows = bookmarkTreeRows
        switch mouse.kind {
        case .wheelDown: view.cursor.selected += 3
        case .wheelUp: view.cursor.selected -= 3
        case .click, .doubleClick:
            let index = view.cursor.top + mouse.y - 1
            guard mouse.y >= 1, mouse.y <= bookmarkRows, index < rows.count else { return [] }
            view.cursor.selected = index
            bookmarksView = view
            rememberSelectedFolder()
            if mouse.kind == .doubleClick {
                bookmarksView = view
                return handleBookmarks(.enter)
            }
        }
        view.cursor.clamp(count: rows.count, rows: bookmarkRows)
        bookmarksView = view
        return []
    }

    private mutating func handleBookmarksPrompt(_ prompt: BookmarksPrompt, key: Key) -> [Effect] {
        guard var view = bookmarksView else { return [] }
        if case .confirmDelete(let id) = prompt {
            view.prompt = nil
            bookmarksView = view
            guard key == .character("y") || key == .character("Y") else {
                message = StatusMessage("Nothing was deleted")
                return []
            }
            let name = bookmarks.node(id: id).map { "'\($0.name.isEmpty ? $0.label : $0.name)'" } ?? "it"
            return [.bookmarks(.deleteBookmarkNode(id: id, confirmation: "Deleted \(name)"))]
        }
        if let edited = LineEdit.edited(prompt.text, by: key) {
            view.prompt = prompt.with(edited)
            bookmarksView = view
            return []
        }
        switch key {
        case .escape, .control("g"):
            view.prompt = nil
        case .enter:
            view.prompt = nil
            let text = prompt.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if case .moveInto(let id, _) = prompt {
                bookmarksView = view
                guard !SavedBookmarks.names(inPath: text).isEmpty else { return [.bookmarks(.moveBookmarkNode(id: id, folder: nil))] }
                guard let folder = bookmarks.folder(atPath: text) else {
                    message = StatusMessage("There is no bookmark folder '\(text)' (a makes one)", isError: true)
                    return []
                }
                return [.bookmarks(.moveBookmarkNode(id: id, folder: folder.id))]
            }
            guard !text.isEmpty else {
                bookmarksView = view
                return []
            }
            switch prompt {
            case .importSource:
                view.importing = text
                view.importBytes = 0
                bookmarksView = view
                message = StatusMessage("Reading the list…")
                return [.readingList(.loadReadingList(source: text))]
            case .newFolder:
                bookmarksView = view
                // Inside the selected folder; beside the selected node otherwise.
                let parent = selectedBookmarkRow.flatMap { row -> Int64? in
                    row.node.kind == .folder ? row.node.id : bookmarks.ancestors(of: row.node.id).last
                }
                return [.bookmarks(.addBookmarkFolder(name: text, parent: parent))]
            case .rename(let id, _):
                bookmarksView = view
                return [.bookmarks(.renameBookmarkNode(id: id, name: text))]
            case .confirmDelete, .moveInto:
                break
            }
        default:
            break
        }
        bookmarksView = view
        return []
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
        guard let view = reading, view.info != nil else { return [] }
        let existing = bookmarks.bookmarks(citeKey: view.key, page: view.page).first {
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
        reading?.prompt = .bookmarkFolder("")
        return []
    }

    /// Bookmarks the page shown in `folder`; the message comes when the bookmark is written.
    mutating func addBookmark(in folder: BookmarkFolderChoice) -> [Effect] {
        guard let view = reading else { return [] }
        let key = citeKey(of: view)
        let libraryName = libraryPaths.count == 1 ? (libraryPaths[0] as NSString).lastPathComponent : nil
        let place = folder.id.map { " in \(bookmarks.path(of: $0))" } ?? ""
        return [.bookmarks(.addBookmark(PageReference(citeKey: key, library: libraryName, page: view.page,
                                           printedPage: view.info?.distinctLabel(ofPage: view.page)), name: view.title, folder: folder.id,
                             confirmation: "Bookmarked \(AppState.pageName(view.page, info: view.info))\(place) (b in the library shows bookmarks)"))]
    }

    /// Closes the note editor, keeping its text as the page's note; the message comes when the
    /// note is written.
    private mutating func saveNote(_ editor: NoteEditor) -> [Effect] {
        guard var view = reading else { return [] }
        view.noteEditor = nil
        let text = editor.string.trimmingCharacters(in: .whitespacesAndNewlines)
        view.notes[editor.page] = text.isEmpty ? nil : text
        reading = view
        guard editor.isChanged else { return [] }
        let page = AppState.pageName(editor.page, info: view.info)
        return [.bookmarks(.saveNote(key: editor.key, page: editor.page, text: text,
                          confirmation: text.isEmpty ? "Deleted the note on \(page)" : "Saved the note on \(page)"))]
    }

    /// The cite key of the paper read (the view holds its address, `key#2` for a duplicate).
    func citeKey(of view: ReadingState) -> String {
        library?.entry(addressedBy: view.key)?.key ?? view.key
    }

    /// `n`: opens the page's note in the editor.
    mutating func openNoteEditor() {
        guard var view = reading, view.info != nil else { return }
        view.noteEditor = NoteEditor(key: citeKey(of: view), page: view.page, text: view.notes[view.page] ?? "")
        reading = view
    }

    /// The question the note editor asks before its changes are lost.
    static let discardQuestion = "The note has changes: C-s saves them, Esc again discards them, Enter goes back to the note"
    static let quitQuestion = "The note has changes: C-c again quits without them, C-s saves them and quits, Esc goes back to the note"

    /// Ctrl-C: quits from any view, overlay or prompt; a note with unsaved changes asks first.
    mutating func quitFromAnywhere() -> [Effect] {
        if var view = reading, var editor = view.noteEditor, editor.isChanged, !editor.confirmingQuit {
            editor.confirmingQuit = true
            editor.confirmingDiscard = false
            view.noteEditor = editor
            reading = view
            message = StatusMessage(AppState.quitQuestion)
            return []
        }
        var effects: [Effect] = []
        if let view = reading, view.info != nil, view.pageText != nil { effects.append(savePositionEffect(view)) }
        isQuitting = true
        return effects + [.app(.saveSession), .app(.quit)]
    }

    mutating func handleNoteEditor(_ key: Key) -> [Effect] {
        guard var view = reading, var editor = view.noteEditor else { return [] }
        let saving = key == .control("s") || key == .function(2)
        // While a question is shown, only its answers act: typing never goes into the note.
        if editor.confirmingQuit {
            if saving { return saveNote(editor) + quitFromAnywhere() }
            if key == .escape || key == .enter || key == .control("g") {
                editor.confirmingQuit = false
            } else {
                message = StatusMessage(AppState.quitQuestion)
            }
            view.noteEditor = editor
            reading = view
            return []
        }
        if editor.confirmingDiscard && !saving {
            switch key {
            case .escape, .control("g"):
                view.noteEditor = nil
                message = StatusMessage("The note's changes were discarded")
            case .enter:
                editor.confirmingDiscard = false
                view.noteEditor = editor
            default:
                message = StatusMessage(AppState.discardQuestion)
            }
            reading = view
            return []
        }
        switch key {
        case .control("s"), .function(2):
            return saveNote(editor)
        case .escape, .control("g"):
            if editor.isChanged {
                editor.confirmingDiscard = true
                message = StatusMessage(AppState.discardQuestion)
            } else {
                view.noteEditor = nil
                reading = view
                return []
            }
        case .enter:
            editor.text.insert("\n", at: editor.cursor)
            editor.cursor += 1
        case .character(let character):
            editor.text.insert(character, at: editor.cursor)
            editor.cursor += 1
        case .tab:
            editor.text.insert(contentsOf: "    ", at: editor.cursor)
            editor.cursor += 4
        case .backspace:
            if editor.cursor > 0 {
                editor.text.remove(at: editor.cursor - 1)
                editor.cursor -= 1
            }
        case .delete, .control("d"):
            if editor.cursor < editor.text.count { editor.text.remove(at: editor.cursor) }
        case .left, .control("b"):
            editor.cursor = max(0, editor.cursor - 1)
        case .right, .control("f"):
            editor.cursor = min(editor.text.count, editor.cursor + 1)
        case .home, .control("a"):
            editor.cursor = NoteEditorLines.lineStart(editor.text, before: editor.cursor)
        case .end, .control("e"):
            editor.cursor = NoteEditorLines.lineEnd(editor.text, from: editor.cursor)
        case .up:
            editor.cursor = NoteEditorLines.verticalMove(editor.text, cursor: editor.cursor, by: -1)
        case .down:
            editor.cursor = NoteEditorLines.verticalMove(editor.text, cursor: editor.cursor, by: 1)
        case .control("u"):
            let start = NoteEditorLines.lineStart(editor.text, before: editor.cursor)
            editor.text.removeSubrange(start..<editor.cursor)
            editor.cursor = start
        default:
            break
        }
        view.noteEditor = editor
        reading = view
        return []
    }
}
