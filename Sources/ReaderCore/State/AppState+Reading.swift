import BibreadValues
import Foundation

/// The reading view in the app: its keys, the overlays over it (prompts, the contents, the
/// note editor), and what reaches beyond it. The view's own update is `ReadingState`'s.
extension AppState {
    /// The reading view's size.
    var readingGeometry: ReadingGeometry { ReadingGeometry(width: width, height: height) }

    /// The columns reflowed text takes: the window, capped so that lines stay readable.
    var readingTextWidth: Int { reading.map(readingGeometry.textWidth) ?? max(10, min(width - 4, 100)) }

    /// Whether the page's note shows in a column beside the text (when the window is wide).
    var showsNotePanel: Bool { reading.map(readingGeometry.showsNotePanel) ?? false }

    /// The width of the note column.
    var notePanelWidth: Int { readingGeometry.notePanelWidth }

    /// Rows of page text on screen (between the title bar and the prompt line).
    var readingRows: Int { readingGeometry.rows }

    /// The lines of the page shown, as they are drawn.
    func readingLines(_ view: ReadingState) -> [String] {
        readingGeometry.lines(view)
    }

    func savePositionEffect(_ view: ReadingState) -> Effect {
        view.savePositionEffect(geometry: readingGeometry)
    }

    /// `p. xii (12 of 300)` where the printed page differs from the page of the file, else `p. 12`.
    static func pageName(_ page: Int, info: DocumentInfo?) -> String {
        info?.pageName(page) ?? "p. \(page)"
    }

    /// The status line while other pages are searched.
    static func searchingMessage(_ query: String) -> StatusMessage {
        StatusMessage("Searching for '\(query)'…")
    }

    // MARK: - Events

    mutating func updateReading(_ event: Event) -> [Effect] {
        guard let view = screen.reading else { return [] }
        switch event {
        case .documentNeedsPassword(let path, let wrong):
            if view.path == path { screen.readingPrompt = .password("", wrong: wrong) }
            return []
        case .documentOpened(let path, _, _, _, _, _) where view.path == path:
            screen.readingPrompt = nil
        default:
            break
        }
        let geometry = readingGeometry
        let effects = screen.reading?.update(event, geometry: geometry, message: &message) ?? []
        // A page typed at `:` before the labels were read is gone to now.
        if case .documentDetails = event, let typed = screen.reading?.pendingGoTo, let view = screen.reading {
            screen.reading?.pendingGoTo = nil
            return effects + answer(.goTo(typed), view: view)
        }
        return effects
    }

    /// Whether the page labels of the document read are still being read, saying so: what
    /// names a page by its label (a bookmark, a link, an app's page) waits for them.
    mutating func labelsBeingRead() -> Bool {
        guard screen.reading?.info?.detailsPending == true else { return false }
        message = StatusMessage("Reading the page labels and the table of contents…")
        return true
    }

    // MARK: - Keys

    /// Runs a key's handling, and saves the reading position when it moved (not only on quit).
    mutating func keepingReadingPosition(_ handle: (inout AppState) -> [Effect]) -> [Effect] {
        let before = screen.reading
        var effects = handle(&self)
        if let before, let after = screen.reading, after.info != nil, after.pageText != nil,
           after.page != before.page || after.scroll != before.scroll {
            effects.append(savePositionEffect(after))
        }
        return effects
    }

    /// A key for the reading view and what it opened over itself (not the help or the "open
    /// with" menu): the mouse wheel scrolls there whatever is on top.
    mutating func handleReadingLayers(_ key: Key) -> [Effect] {
        switch screen.overlays.last(where: { !$0.isGlobal }) {
        case .readingPrompt?: return handleReadingPrompt(key)
        case .outline?: return handleOutline(key)
        case .noteEditor?: return handleNoteEditor(key)
        default: return handleReading(key)
        }
    }

    /// A key in the reading view itself.
    mutating func handleReading(_ key: Key) -> [Effect] {
        guard let view = screen.reading, let action = keymap.action(for: key, in: .reading) else { return [] }
        switch action {
        case .back, .quit:
            let save = view.info != nil && view.pageText != nil ? [savePositionEffect(view)] : []
            screen.reading = nil
            return save + [.app(.saveSession)]
        case .help:
            screen.show(.help(scroll: 0))
        case .goToPage:
            if view.info != nil { screen.readingPrompt = .goTo("") }
        case .searchDocument:
            if view.info != nil { screen.readingPrompt = .search("") }
        case .bookmarkPage:
            return toggleBookmark()
        case .openWith:
            return openWithMenu()
        case .copyLink:
            return copyLink()
        case .editNote:
            openNoteEditor()
        case .fileInGroups:
            return openGroupPicker()
        case .toggleRead:
            return performEdit(.toggleRead)
        case .outline:
            guard let info = view.info, !labelsBeingRead() else { return [] }
            if info.outline.isEmpty {
                message = StatusMessage("This document has no table of contents")
            } else {
                // Start at the section that holds the current page.
                let current = info.outlineIndex(holding: view.page) ?? 0
                screen.outlineCursor = ListCursor(selected: current, top: max(0, current - readingRows / 2))
            }
        default:
            let geometry = readingGeometry
            return screen.reading?.perform(action, geometry: geometry, message: &message) ?? []
        }
        return []
    }

    /// Goes to another page of the document read; its text arrives as `pageText`.
    mutating func turn(toPage target: Int) -> [Effect] {
        let geometry = readingGeometry
        return screen.reading?.turn(toPage: target, geometry: geometry, message: &message) ?? []
    }

    mutating func handleReadingPrompt(_ key: Key) -> [Effect] {
        guard let prompt = screen.readingPrompt, let view = screen.reading else { return [] }
        let action = keymap.action(for: key, in: .prompt)
        var field = TextField(prompt.text)
        if field.apply(action, key: key) {
            screen.readingPrompt = prompt.with(field.text)
            return []
        }
        switch action {
        case .cancel:
            screen.readingPrompt = nil
            if case .password = prompt { screen.reading = nil }
            return []
        case .confirm:
            screen.readingPrompt = nil
            return answer(prompt, view: view)
        default:
            return []
        }
    }

    /// Enter in a prompt of the reading view.
    private mutating func answer(_ prompt: ReadingPrompt, view: ReadingState) -> [Effect] {
        switch prompt {
        case .goTo(let text):
            guard !text.isEmpty, let info = view.info else { return [] }
            if info.detailsPending {
                // Which page a label names is known with the labels: gone to when they arrive.
                screen.reading?.pendingGoTo = text
                return []
            }
            guard let request = PageRequest(typed: text) else {
                message = StatusMessage("No page '\(text)': give a printed page (xii, 151) or #N for the Nth page of the file", isError: true)
                return []
            }
            let resolution = info.resolve(request, from: view.page)
            guard let page = resolution.page else {
                message = StatusMessage(info.note(on: resolution), isError: true)
                return []
            }
            let effects = turn(toPage: page)
            if case .noSuchLabel = resolution { message = StatusMessage(info.note(on: resolution)) }
            return effects
        case .search(let text):
            guard !text.isEmpty else { return [] }
            screen.reading?.startSearch(text)
            let geometry = readingGeometry
            return screen.reading?.findMatch(forward: true, geometry: geometry, message: &message) ?? []
        case .bookmarkFolder(let text):
            let choice: BookmarkFolderChoice
            if SavedBookmarks.names(inPath: text).isEmpty {
                choice = .topLevel
            } else if let folder = bookmarks.folder(atPath: text) {
                choice = .folder(folder.id)
            } else {
                message = StatusMessage("There is no bookmark folder '\(text)' (b shows them; a makes one)", isError: true)
                return []
            }
            bookmarkFolder = choice
            return addBookmark(in: choice)
        case .password(let text, _):
            screen.reading?.error = nil
            return [.document(.openDocument(path: view.path, password: text))]
        }
    }

    mutating func handleOutline(_ key: Key) -> [Effect] {
        guard let cursor = screen.outlineCursor, let outline = screen.reading?.info?.outline else { return [] }
        let rows = max(1, height - 6)
        switch keymap.action(for: key, in: .outline) {
        case .close, .outline:
            screen.outlineCursor = nil
            return []
        case .choose:
            screen.outlineCursor = nil
            guard cursor.selected < outline.count, let page = outline[cursor.selected].page else {
                message = StatusMessage("This entry points nowhere in the document", isError: true)
                return []
            }
            return turn(toPage: page)
        case .moveDown: screen.outlineCursor?.selected += 1
        case .moveUp: screen.outlineCursor?.selected -= 1
        case .pageDown: screen.outlineCursor?.selected += rows - 1
        case .pageUp: screen.outlineCursor?.selected -= rows - 1
        case .moveFirst: screen.outlineCursor?.selected = 0
        case .moveLast: screen.outlineCursor?.selected = outline.count - 1
        default: break
        }
        screen.outlineCursor?.clamp(count: outline.count, rows: rows)
        return []
    }

    // MARK: - Recently read

    /// Shows the references read so far, the most recent first.
    mutating func refreshRecentlyRead() {
        guard let library else { return }
        var members: [(Int, Double)] = []
        for (position, entry) in library.entries.enumerated() {
            if let time = lastRead[entry.entryAddress] { members.append((position, time)) }
        }
        members.sort { $0.1 > $1.1 }
        groupMembers = members.map(\.0)
        refreshVisible()
    }
}
