import BibModel
import BibreadValues


/// The PDF reading view: one page of text at a time.
public struct ReadingState: Sendable, Equatable {
    public let path: String
    /// The reference read (its address: `key#2` for the second of a duplicate key).
    public let address: EntryAddress
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
    /// The search whose matches are highlighted (`>`/`<` find the next).
    public var search: String?
    /// Which occurrence of the search on this page `>`/`<` last went to (an index into
    /// `ReadingText.occurrences`); nil when none was on this page yet.
    public var currentMatch: Int?
    public var searching = false
    /// Opened at a chosen page (a bookmark, a link): the remembered position does not override
    /// it. A printed page is found once the document's labels are known.
    public var requestedPage: PageRequest?
    /// Opened at `requestedPage` before the labels were read: the opening, finished once they are.
    public var deferredOpening: DeferredOpening?
    /// The "Resumed at" message shown before the labels were read (it names the page by its
    /// number), said again with the page's label once they are.
    public var provisionalResume: ProvisionalResume?
    /// `:` answered before the labels were read: the page typed, gone to once they are.
    public var pendingGoTo: String?
    /// The paper's page notes, by page.
    public var notes: [Int: String] = [:]

    public init(path: String, address: EntryAddress, title: String, page: Int = 1) {
        self.path = path
        self.address = address
        self.title = title
        self.page = page
    }

    public var pageCount: Int? { info?.pageCount }

    /// The note on the page shown, if any.
    public var pageNote: String? { notes[page].flatMap { $0.isEmpty ? nil : $0 } }
}
