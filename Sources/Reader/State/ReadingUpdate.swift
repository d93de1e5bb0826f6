import BibreadServices
import Foundation

extension AppState {
    /// The built-in group of references by last reading time.
    public static let recentlyRead = "Recently read"

    /// The columns reflowed text takes: the window, capped so that lines stay readable.
    var readingTextWidth: Int {
        let full = max(10, min(width - 4, 100))
        guard showsNotePanel else { return full }
        return max(40, min(width - 5 - notePanelWidth, 100))
    }

    /// Whether the page's note shows in a column beside the text (when the window is wide).
    var showsNotePanel: Bool { reading?.pageNote != nil && width >= 90 }

    /// The width of the note column.
    var notePanelWidth: Int { min(44, max(28, width / 3)) }

    /// Rows of page text on screen (between the title bar and the prompt line).
    var readingRows: Int { max(1, height - 3) }

    /// The lines of the page shown, as they are drawn.
    func readingLines(_ view: ReadingState) -> [String] {
        guard let text = view.pageText else { return [] }
        return ReadingText.shownLines(of: text, mode: view.mode, width: readingTextWidth)
    }

    // MARK: - Events

    mutating func updateReading(_ event: Event) -> [Effect] {
        guard var view = reading else { return [] }
        switch event {
        case .documentOpened(let path, let info, let resumePage, let resumeScroll, let savedMode):
            guard view.path == path else { return [] }
            // `t` pressed while the document opened is saved now (the shell knows it only now).
            let remember: [Effect] = view.modeChosen ? [.reading(.saveReadingMode(path: path, mode: view.mode))] : []
            if let savedMode, !view.modeChosen { view.mode = savedMode }
            view.info = info
            view.error = nil
            view.prompt = nil
            if let title = info.title, !title.isEmpty, view.title.isEmpty { view.title = title }
            if let request = view.requestedPage {
                let resolution = info.resolve(request)
                switch resolution {
                case .page(let page):
                    view.page = page
                case .noSuchLabel(_, let page):
                    view.page = page
                    message = StatusMessage(info.note(on: resolution))
                case .pastTheEnd, .notFound:
                    // Past the end: the last page, and say so.
                    view.page = info.pageCount
                    message = StatusMessage(info.note(on: resolution) + ": showing \(info.pageName(info.pageCount))", isError: true)
                }
            } else if let resumePage, resumePage >= 1, resumePage <= info.pageCount, resumePage != 1 || resumeScroll > 0 {
                view.page = resumePage
                view.pendingScrollFraction = resumeScroll
                message = StatusMessage("Resumed at \(AppState.pageName(resumePage, info: info))")
            }
            view.page = min(max(1, view.page), max(1, info.pageCount))
            reading = view
            return [.document(.extractPage(path: path, page: view.page, mode: view.mode))] + remember
        case .documentNeedsPassword(let path, let wrong):
            guard view.path == path else { return [] }
            view.prompt = .password("", wrong: wrong)
            reading = view
            return []
        case .pageText(let path, let page, let mode, let text):
            guard view.path == path, view.page == page, view.mode == mode else { return [] }
            view.pageText = text
            let lines = readingLines(view)
            if let fraction = view.pendingScrollFraction {
                view.scroll = Int((fraction * Double(lines.count)).rounded(.down))
                view.pendingScrollFraction = nil
            }
            if view.scrollToMatch, let query = view.search {
                let found = ReadingText.occurrences(of: query, in: lines)
                view.currentMatch = found.isEmpty ? nil : (view.matchFromEnd ? found.count - 1 : 0)
                if let current = view.currentMatch { view.scroll = max(0, found[current].line - readingRows / 3) }
                view.scrollToMatch = false
            }
            view.scroll = min(view.scroll, max(0, lines.count - readingRows))
            reading = view
            return []
        case .documentFailed(let path, let text):
            guard view.path == path else { return [] }
            view.error = text
            reading = view
            return []
        case .searchResult(let path, let query, let page, let wrapped):
            guard view.path == path, view.search == query, view.searching else { return [] }
            view.searching = false
            if message == AppState.searchingMessage(query) { message = nil }
            guard let page else {
                message = StatusMessage("'\(query)' is not in this document", isError: true)
                reading = view
                return []
            }
            if wrapped { message = StatusMessage(view.matchFromEnd ? "Search wrapped to the last page" : "Search wrapped to the first page") }
            if page == view.page, let text = view.pageText {
                view.scrollToMatch = true
                reading = view
                return updateReading(.pageText(path: path, page: page, mode: view.mode, text: text))
            }
            reading = view
            return turn(toPage: page, scrollToMatch: true)
        default:
            return []
        }
    }

    /// `p. xii (12 of 300)` where the printed page differs from the page of the file, else `p. 12`.
    static func pageName(_ page: Int, info: DocumentInfo?) -> String {
        info?.pageName(page) ?? "p. \(page)"
    }

    // MARK: - Keys

    mutating func handleReading(_ key: Key) -> [Effect] {
        guard let before = reading else { return [] }
        var effects: [Effect]
        if before.noteEditor != nil {
            effects = handleNoteEditor(key)
        } else if before.prompt != nil {
            effects = handleReadingPrompt(key)
        } else if before.showingOutline {
            effects = handleOutline(key)
        } else if let action = keymap.action(for: key, in: .reading) {
            effects = performReading(action)
        } else {
            effects = []
        }
        // Save the position whenever it moved (not only on quit).
        if let after = reading, after.info != nil, after.pageText != nil, after.page != before.page || after.scroll != before.scroll {
            effects.append(savePositionEffect(after))
        }
        return effects
    }

    func savePositionEffect(_ view: ReadingState) -> Effect {
        let count = readingLines(view).count
        let fraction = count > 0 ? min(1, Double(view.scroll) / Double(count)) : 0
        return .reading(.savePosition(path: view.path, page: view.page, scroll: fraction))
    }

    private mutating func performReading(_ action: Action) -> [Effect] {
        guard var view = reading else { return [] }
        let lines = readingLines(view)
        let maxScroll = max(0, lines.count - readingRows)
        switch action {
        case .back, .quit:
            let save = view.info != nil && view.pageText != nil ? [savePositionEffect(view)] : []
            reading = nil
            return save + [.app(.saveSession)]
        case .help:
            showingHelp = true
            helpScroll = 0
        case .redraw:
            return [.app(.redrawAll)]
        case .moveDown: view.scroll = min(maxScroll, view.scroll + 1)
        case .moveUp: view.scroll = max(0, min(view.scroll, maxScroll) - 1)
        case .halfPageDown: view.scroll = min(maxScroll, view.scroll + readingRows / 2)
        case .halfPageUp: view.scroll = max(0, min(view.scroll, maxScroll) - readingRows / 2)
        case .pageDown:
            if view.scroll >= maxScroll { return turn(toPage: view.page + 1) }
            view.scroll = min(maxScroll, view.scroll + readingRows - 1)
        case .pageUp:
            if view.scroll == 0 { return turn(toPage: view.page - 1, fromEnd: true) }
            view.scroll = max(0, min(view.scroll, maxScroll) - readingRows + 1)
        case .nextPage: return turn(toPage: view.page + 1)
        case .previousPage: return turn(toPage: view.page - 1)
        case .moveFirst: return turn(toPage: 1)
        case .moveLast: return turn(toPage: view.pageCount ?? view.page)
        case .scrollLeft: view.column = max(0, view.column - 8)
        case .scrollRight:
            if view.mode == .layout {
                let widest = lines.map { DisplayWidth.of($0) }.max() ?? 0
                view.column = min(max(0, widest - (width - 2)), view.column + 8)
            }
        case .toggleLayout:
            let count = lines.count
            view.currentMatch = nil
            view.pendingScrollFraction = count > 0 ? Double(view.scroll) / Double(count) : 0
            view.mode = view.mode == .reflow ? .layout : .reflow
            view.modeChosen = true
            view.pageText = nil
            view.column = 0
            message = StatusMessage(view.mode == .layout ? "Layout: the page as printed (h/l scroll sideways)" : "Reflow: paragraphs rewrapped to the window")
            reading = view
            let remember: [Effect] = view.info != nil ? [.reading(.saveReadingMode(path: view.path, mode: view.mode))] : []
            return [.document(.extractPage(path: view.path, page: view.page, mode: view.mode))] + remember
        case .goToPage:
            guard view.info != nil else { return [] }
            view.prompt = .goTo("")
        case .searchDocument:
            guard view.info != nil else { return [] }
            view.prompt = .search("")
        case .nextMatch, .previousMatch:
            reading = view
            return findMatch(forward: action == .nextMatch)
        case .bookmarkPage:
            reading = view
            return toggleBookmark()
        case .openWith:
            reading = view
            return openWithMenu()
        case .copyLink:
            reading = view
            return copyLink()
        case .editNote:
            reading = view
            openNoteEditor()
            return []
        case .outline:
            guard let info = view.info else { return [] }
            if info.outline.isEmpty {
                message = StatusMessage("This document has no table of contents")
            } else {
                view.showingOutline = true
                // Start at the section that holds the current page.
                let current = info.outlineIndex(holding: view.page) ?? 0
                view.outlineCursor = ListCursor(selected: current, top: max(0, current - readingRows / 2))
            }
        default:
            break
        }
        reading = view
        return []
    }

    /// Goes to another page; its text arrives as `pageText`.
    mutating func turn(toPage target: Int, fromEnd: Bool = false, scrollToMatch: Bool = false) -> [Effect] {
        guard var view = reading else { return [] }
        let last = view.pageCount ?? 1
        let page = min(max(1, target), last)
        if page == view.page && !scrollToMatch {
            if target > last { message = StatusMessage("This is the last page") }
            if target < 1 { message = StatusMessage("This is the first page") }
            return []
        }
        view.page = page
        view.pageText = nil
        view.scroll = 0
        view.currentMatch = nil
        view.pendingScrollFraction = fromEnd ? 1 : nil
        view.scrollToMatch = scrollToMatch
        reading = view
        return [.document(.extractPage(path: view.path, page: page, mode: view.mode)), savePositionEffect(view)]
    }

    /// The status line while other pages are searched.
    static func searchingMessage(_ query: String) -> StatusMessage {
        StatusMessage("Searching for '\(query)'…")
    }

    /// `>`/`<`: the next (or previous) occurrence on this page after the current one, else
    /// the search goes on in the other pages in the background, round the document's end and
    /// back to this page. With no current occurrence on this page, it starts at the top of the
    /// screen.
    private mutating func findMatch(forward: Bool) -> [Effect] {
        guard var view = reading, let query = view.search, !query.isEmpty else {
            message = StatusMessage("No search yet: press / to search the document")
            return []
        }
        guard !view.searching else {
            message = AppState.searchingMessage(query)
            return []
        }
        let lines = readingLines(view)
        let found = ReadingText.occurrences(of: query, in: lines)
        let next: Int?
        if let current = view.currentMatch, current < found.count {
            next = forward ? (current + 1 < found.count ? current + 1 : nil) : (current > 0 ? current - 1 : nil)
        } else if forward {
            next = found.firstIndex { $0.line >= view.scroll }
        } else {
            next = found.lastIndex { $0.line < view.scroll }
        }
        if let next {
            view.currentMatch = next
            view.scroll = max(0, min(found[next].line - readingRows / 3, max(0, lines.count - readingRows)))
            reading = view
            return []
        }
        view.searching = true
        view.matchFromEnd = !forward
        message = AppState.searchingMessage(query)
        reading = view
        return [.document(.findInDocument(path: view.path, query: query, fromPage: view.page, forward: forward, mode: view.mode, width: readingTextWidth))]
    }

    private mutating func handleReadingPrompt(_ key: Key) -> [Effect] {
        guard var view = reading, let prompt = view.prompt else { return [] }
        if let edited = LineEdit.edited(prompt.text, by: key) {
            view.prompt = prompt.with(edited)
            reading = view
            return []
        }
        switch key {
        case .escape, .control("g"):
            view.prompt = nil
            reading = view
            if case .password = prompt { reading = nil }
            return []
        case .enter:
            view.prompt = nil
            reading = view
            switch prompt {
            case .goTo(let text):
                guard !text.isEmpty, let info = view.info else { return [] }
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
                view.search = text
                view.searching = false
                view.currentMatch = nil
                view.matchFromEnd = false
                reading = view
                return findMatch(forward: true)
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
                view.error = nil
                reading = view
                return [.document(.openDocument(path: view.path, password: text))]
            }
        default:
            break
        }
        reading = view
        return []
    }

    private mutating func handleOutline(_ key: Key) -> [Effect] {
        guard var view = reading, let outline = view.info?.outline else { return [] }
        let rows = max(1, height - 6)
        switch key {
        case .escape, .character("q"), .character("c"):
            view.showingOutline = false
        case .enter:
            view.showingOutline = false
            reading = view
            guard view.outlineCursor.selected < outline.count, let page = outline[view.outlineCursor.selected].page else {
                message = StatusMessage("This entry points nowhere in the document", isError: true)
                return []
            }
            return turn(toPage: page)
        default:
            switch keymap.action(for: key, in: .reading) {
            case .moveDown: view.outlineCursor.selected += 1
            case .moveUp: view.outlineCursor.selected -= 1
            case .pageDown: view.outlineCursor.selected += rows - 1
            case .pageUp: view.outlineCursor.selected -= rows - 1
            case .moveFirst: view.outlineCursor.selected = 0
            case .moveLast: view.outlineCursor.selected = outline.count - 1
            default: break
            }
            view.outlineCursor.clamp(count: outline.count, rows: rows)
        }
        reading = view
        return []
    }

    // MARK: - Recently read

    /// Shows the references read so far, the most recent first.
    mutating func refreshRecentlyRead() {
        guard let library else { return }
        var members: [(Int, Double)] = []
        for (position, entry) in library.entries.enumerated() {
            if let time = lastRead[entry.address] { members.append((position, time)) }
        }
        members.sort { $0.1 > $1.1 }
        groupMembers = members.map(\.0)
        refreshVisible()
    }
}
