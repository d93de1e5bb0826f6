import BibModel
import BibreadValues
import Foundation

/// The reading view's own update: events about its document and the actions on the view
/// itself change the view in place and return the work to do. What reaches beyond the view
/// (overlays, bookmarks, "open with", leaving it) is the app's, in `AppState+Reading`.
extension ReadingState {
    /// An event about the document read; `message` is the status line's.
    mutating func update(_ event: Event, geometry: ReadingGeometry, message: inout StatusMessage?) -> [Effect] {
        switch event {
        case .documentOpened(let path, let info, let resumePage, let resumeScroll, let savedMode, let readElsewhere):
            guard self.path == path else { return [] }
            guard info.detailsPending else {
                return opened(info: info, resumePage: resumePage, resumeScroll: resumeScroll, savedMode: savedMode,
                              readElsewhere: readElsewhere, message: &message)
            }
            // The first page first, then the labels and the outline; a chosen page waits for them.
            let details: [Effect] = [.document(.readDocumentDetails(path: path))]
            if requestedPage != nil {
                deferredOpening = DeferredOpening(info: info, resumePage: resumePage, resumeScroll: resumeScroll,
                                                  mode: savedMode, readElsewhere: readElsewhere)
                return details
            }
            let effects = opened(info: info, resumePage: resumePage, resumeScroll: resumeScroll, savedMode: savedMode,
                                 readElsewhere: readElsewhere, message: &message)
            if let resumed = message?.text, resumed == Self.resumeMessage(page: page, info: info, readElsewhere: readElsewhere) {
                provisionalResume = ProvisionalResume(shown: resumed, page: page, readElsewhere: readElsewhere)
            }
            return effects + details
        case .documentDetails(let path, let labels, let outline):
            guard self.path == path else { return [] }
            if let deferred = deferredOpening {
                deferredOpening = nil
                return opened(info: deferred.info.withDetails(labels: labels, outline: outline), resumePage: deferred.resumePage,
                              resumeScroll: deferred.resumeScroll, savedMode: deferred.mode, readElsewhere: deferred.readElsewhere,
                              message: &message)
            }
            guard let info, info.detailsPending else { return [] }
            let complete = info.withDetails(labels: labels, outline: outline)
            self.info = complete
            // The resume message names the page as it would have with the labels known.
            if let provisional = provisionalResume, message?.text == provisional.shown {
                message = StatusMessage(Self.resumeMessage(page: provisional.page, info: complete, readElsewhere: provisional.readElsewhere))
            }
            provisionalResume = nil
            return []
        default:
            return updatePage(event, geometry: geometry, message: &message)
        }
    }

    /// The document is open and its labels known: the page to show (the one asked for, else
    /// where it was last read), and its text asked for.
    private mutating func opened(info: DocumentInfo, resumePage: Int?, resumeScroll: Double, savedMode: ReadingMode?,
                                 readElsewhere: String?, message: inout StatusMessage?) -> [Effect] {
        // `t` pressed while the document opened is saved now (the shell knows it only now).
        let remember: [Effect] = modeChosen ? [.reading(.saveReadingMode(path: path, mode: mode))] : []
        if let savedMode, !modeChosen { mode = savedMode }
        self.info = info
        error = nil
        if let title = info.title, !title.isEmpty, self.title.isEmpty { self.title = title }
        if let request = requestedPage {
            let resolution = info.resolve(request)
            switch resolution {
            case .page(let page):
                self.page = page
            case .noSuchLabel(_, let page):
                self.page = page
                message = StatusMessage(info.note(on: resolution))
            case .pastTheEnd, .notFound:
                // Past the end: the last page, and say so.
                page = info.pageCount
                message = StatusMessage(info.note(on: resolution) + ": showing \(info.pageName(info.pageCount))", isError: true)
            }
        } else if let resumePage, resumePage >= 1, resumePage <= info.pageCount, resumePage != 1 || resumeScroll > 0 {
            page = resumePage
            pendingScrollFraction = resumeScroll
            message = StatusMessage(Self.resumeMessage(page: resumePage, info: info, readElsewhere: readElsewhere))
        }
        page = min(max(1, page), max(1, info.pageCount))
        return [.document(.extractPage(path: path, page: page, mode: mode))] + remember
    }

    /// "Resumed at p. 12" (and where it was read, when on another machine).
    static func resumeMessage(page: Int, info: DocumentInfo, readElsewhere: String?) -> String {
        "Resumed at \(AppState.pageName(page, info: info))" + (readElsewhere.map { " (\(TerminalText.cleanedLine($0)))" } ?? "")
    }

    /// A page's text arrived, the document failed, or a search ended.
    private mutating func updatePage(_ event: Event, geometry: ReadingGeometry, message: inout StatusMessage?) -> [Effect] {
        switch event {
        case .pageText(let path, let page, let mode, let text):
            guard self.path == path, self.page == page, self.mode == mode else { return [] }
            pageText = text
            let lines = geometry.lines(self)
            if let fraction = pendingScrollFraction {
                scroll = Int((fraction * Double(lines.count)).rounded(.down))
                pendingScrollFraction = nil
            }
            if scrollToMatch, let query = search {
                let found = ReadingText.occurrences(of: query, in: lines)
                currentMatch = found.isEmpty ? nil : (matchFromEnd ? found.count - 1 : 0)
                if let current = currentMatch { scroll = max(0, found[current].line - geometry.rows / 3) }
                scrollToMatch = false
            }
            scroll = min(scroll, max(0, lines.count - geometry.rows))
            return []
        case .documentFailed(let path, let text):
            guard self.path == path else { return [] }
            error = text
            return []
        case .searchResult(let path, let query, let page, let wrapped):
            guard self.path == path, search == query, searching else { return [] }
            searching = false
            if message == AppState.searchingMessage(query) { message = nil }
            guard let page else {
                message = StatusMessage("'\(query)' is not in this document", isError: true)
                return []
            }
            if wrapped { message = StatusMessage(matchFromEnd ? "Search wrapped to the last page" : "Search wrapped to the first page") }
            if page == self.page, let text = pageText {
                scrollToMatch = true
                return update(.pageText(path: path, page: page, mode: mode, text: text), geometry: geometry, message: &message)
            }
            return turn(toPage: page, scrollToMatch: true, geometry: geometry, message: &message)
        default:
            return []
        }
    }

    /// An action on the view itself (scrolling, pages, layout, matches); nil when the action
    /// is not the view's own.
    mutating func perform(_ action: Action, geometry: ReadingGeometry, message: inout StatusMessage?) -> [Effect]? {
        let lines = geometry.lines(self)
        let rows = geometry.rows
        let maxScroll = max(0, lines.count - rows)
        switch action {
        case .redraw: return [.app(.redrawAll)]
        case .moveDown: scroll = min(maxScroll, scroll + 1)
        case .moveUp: scroll = max(0, min(scroll, maxScroll) - 1)
        case .halfPageDown: scroll = min(maxScroll, scroll + rows / 2)
        case .halfPageUp: scroll = max(0, min(scroll, maxScroll) - rows / 2)
        case .pageDown:
            if scroll >= maxScroll { return turn(toPage: page + 1, geometry: geometry, message: &message) }
            scroll = min(maxScroll, scroll + rows - 1)
        case .pageUp:
            if scroll == 0 { return turn(toPage: page - 1, fromEnd: true, geometry: geometry, message: &message) }
            scroll = max(0, min(scroll, maxScroll) - rows + 1)
        case .nextPage: return turn(toPage: page + 1, geometry: geometry, message: &message)
        case .previousPage: return turn(toPage: page - 1, geometry: geometry, message: &message)
        case .moveFirst: return turn(toPage: 1, geometry: geometry, message: &message)
        case .moveLast: return turn(toPage: pageCount ?? page, geometry: geometry, message: &message)
        case .scrollLeft: column = max(0, column - 8)
        case .scrollRight:
            if mode == .layout {
                let widest = lines.map { DisplayWidth.of($0) }.max() ?? 0
                column = min(max(0, widest - (geometry.width - 2)), column + 8)
            }
        case .toggleLayout:
            let count = lines.count
            currentMatch = nil
            pendingScrollFraction = count > 0 ? Double(scroll) / Double(count) : 0
            mode = mode == .reflow ? .layout : .reflow
            modeChosen = true
            pageText = nil
            column = 0
            message = StatusMessage(mode == .layout ? "Layout: the page as printed (h/l scroll sideways)" : "Reflow: paragraphs rewrapped to the window")
            let remember: [Effect] = info != nil ? [.reading(.saveReadingMode(path: path, mode: mode))] : []
            return [.document(.extractPage(path: path, page: page, mode: mode))] + remember
        case .nextMatch, .previousMatch:
            return findMatch(forward: action == .nextMatch, geometry: geometry, message: &message)
        default:
            return nil
        }
        return []
    }

    /// Goes to another page; its text arrives as `pageText`.
    mutating func turn(toPage target: Int, fromEnd: Bool = false, scrollToMatch: Bool = false, geometry: ReadingGeometry,
                       message: inout StatusMessage?) -> [Effect] {
        let last = pageCount ?? 1
        let newPage = min(max(1, target), last)
        if newPage == page && !scrollToMatch {
            if target > last { message = StatusMessage("This is the last page") }
            if target < 1 { message = StatusMessage("This is the first page") }
            return []
        }
        page = newPage
        pageText = nil
        scroll = 0
        currentMatch = nil
        pendingScrollFraction = fromEnd ? 1 : nil
        self.scrollToMatch = scrollToMatch
        return [.document(.extractPage(path: path, page: newPage, mode: mode)), savePositionEffect(geometry: geometry)]
    }

    /// `>`/`<`: the next (or previous) occurrence on this page after the current one, else
    /// the search goes on in the other pages in the background, round the document's end and
    /// back to this page. With no current occurrence on this page, it starts at the top of the
    /// screen.
    mutating func findMatch(forward: Bool, geometry: ReadingGeometry, message: inout StatusMessage?) -> [Effect] {
        guard let query = search, !query.isEmpty else {
            message = StatusMessage("No search yet: press / to search the document")
            return []
        }
        guard !searching else {
            message = AppState.searchingMessage(query)
            return []
        }
        let lines = geometry.lines(self)
        let found = ReadingText.occurrences(of: query, in: lines)
        let next: Int?
        if let current = currentMatch, current < found.count {
            next = forward ? (current + 1 < found.count ? current + 1 : nil) : (current > 0 ? current - 1 : nil)
        } else if forward {
            next = found.firstIndex { $0.line >= scroll }
        } else {
            next = found.lastIndex { $0.line < scroll }
        }
        if let next {
            currentMatch = next
            scroll = max(0, min(found[next].line - geometry.rows / 3, max(0, lines.count - geometry.rows)))
            return []
        }
        searching = true
        matchFromEnd = !forward
        message = AppState.searchingMessage(query)
        return [.document(.findInDocument(path: path, query: query, fromPage: page, forward: forward, mode: mode, width: geometry.textWidth(self)))]
    }

    /// A new search of the document, its first match to be found.
    mutating func startSearch(_ text: String) {
        search = text
        searching = false
        currentMatch = nil
        matchFromEnd = false
    }

    /// Highlights `words` and scrolls to their first occurrence once the page arrives.
    mutating func showMatches(of words: String?) {
        search = words
        scrollToMatch = true
    }

    /// Where the reader is in the document, to save (page, and 0…1 down the page).
    func savePositionEffect(geometry: ReadingGeometry) -> Effect {
        let count = geometry.lines(self).count
        let fraction = count > 0 ? min(1, Double(scroll) / Double(count)) : 0
        return .reading(.savePosition(path: path, page: page, scroll: fraction))
    }
}
