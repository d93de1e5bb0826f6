/// How a page's text is shown.
public enum ReadingMode: String, Sendable, Equatable {
    /// Paragraphs rewrapped to the window.
    case reflow
    /// The page's physical layout, scrollable sideways.
    case layout
}

/// One entry of a document's outline (table of contents).
public struct OutlineEntry: Sendable, Equatable {
    public let title: String
    public let level: Int
    public let page: Int?

    public init(title: String, level: Int, page: Int?) {
        self.title = title
        self.level = level
        self.page = page
    }
}

/// What the reader knows about an open document.
public struct DocumentInfo: Sendable, Equatable {
    public let pageCount: Int
    public let title: String?
    /// One label per page (`xii`, `12`); the page number where the document has none.
    public let labels: [String]
    public let outline: [OutlineEntry]

    public init(pageCount: Int, title: String?, labels: [String], outline: [OutlineEntry]) {
        self.pageCount = pageCount
        self.title = title
        self.labels = labels
        self.outline = outline
    }

    /// The label of a page when it differs from its number (`xii` for page 12).
    public func distinctLabel(ofPage page: Int) -> String? {
        guard page >= 1, page <= labels.count else { return nil }
        let label = labels[page - 1]
        return label == String(page) || label.isEmpty ? nil : label
    }

    /// The printed label of a page: its label, else its number.
    public func label(ofPage page: Int) -> String {
        distinctLabel(ofPage: page) ?? String(page)
    }

    /// The outline entry of the section that holds `page`: the one whose page is the greatest
    /// not after `page`, the last such in outline order on a tie, whatever order the outline's
    /// pages come in; nil when every entry starts later (or points nowhere).
    public func outlineIndex(holding page: Int) -> Int? {
        var best: (index: Int, page: Int)?
        for (index, entry) in outline.enumerated() {
            guard let start = entry.page, start <= page else { continue }
            if best == nil || start >= best?.page ?? Int.min { best = (index, start) }
        }
        return best?.index
    }
}

/// A one-line prompt at the bottom of the reading view.
public enum ReadingPrompt: Sendable, Equatable {
    /// `:` go to a printed page (label), or `#N` a page of the file.
    case goTo(String)
    /// `/` search the document.
    case search(String)
    /// The document is encrypted; `wrong` after a failed try.
    case password(String, wrong: Bool)
    /// `m` with folders and none chosen yet: the folder to bookmark the page in (a path).
    case bookmarkFolder(String)

    var text: String {
        switch self {
        case .goTo(let text), .search(let text), .password(let text, _), .bookmarkFolder(let text): return text
        }
    }

    func with(_ text: String) -> ReadingPrompt {
        switch self {
        case .goTo: return .goTo(text)
        case .search: return .search(text)
        case .password(_, let wrong): return .password(text, wrong: wrong)
        case .bookmarkFolder: return .bookmarkFolder(text)
        }
    }
}

/// The PDF reading view: one page of text at a time.
public struct ReadingState: Sendable, Equatable {
    public let path: String
    public let key: String
    public var title: String
    public var info: DocumentInfo?
    public var page: Int
    public var mode: ReadingMode = .reflow
    /// `t` was pressed in this view: its choice wins over the one saved for the document.
    public var modeChosen = false
    /// The text of `page` in `mode`, once extracted.
    public var pageText: String?
    /// The first line shown.
    public var scroll = 0
    /// The first column shown (layout mode).
    public var column = 0
    /// Where to scroll once the page's text arrives (from 0, the top, to 1), when resuming.
    public var pendingScrollFraction: Double?
    /// Scroll to the first line matching the search once the page arrives.
    public var scrollToMatch = false
    /// `N` went back a page: land on that page's last match.
    public var matchFromEnd = false
    public var error: String?
    public var prompt: ReadingPrompt?
    /// The search whose matches are highlighted (`>`/`<` find the next).
    public var search: String?
    /// Which occurrence of the search on this page `>`/`<` last went to (an index into
    /// `ReadingText.occurrences`); nil when none was on this page yet.
    public var currentMatch: Int?
    public var searching = false
    public var showingOutline = false
    public var outlineCursor = ListCursor()
    /// Opened at a chosen page (a bookmark, a link): the remembered position does not override
    /// it. A printed page is found once the document's labels are known.
    public var requestedPage: PageRequest?
    /// The paper's page notes, by page.
    public var notes: [Int: String] = [:]
    /// The page-note editor, while open.
    public var noteEditor: NoteEditor?

    public init(path: String, key: String, title: String, page: Int = 1) {
        self.path = path
        self.key = key
        self.title = title
        self.page = page
    }

    public var pageCount: Int? { info?.pageCount }

    /// The note on the page shown, if any.
    public var pageNote: String? { notes[page].flatMap { $0.isEmpty ? nil : $0 } }
}
