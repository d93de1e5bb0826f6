/// The pages of a paper a bookmark points at.
public struct PageReference: Sendable, Equatable, Hashable {
    /// The paper's cite key.
    public var citeKey: String
    /// The library it is in (a library's name or a .bib file name), when the list says.
    public var library: String?
    /// The first page (1-based), counted in the file: what bookmarks store.
    public var page: Int
    /// The last page, for a range; nil for one page.
    public var lastPage: Int?
    /// The first page's printed label (`xii`, `151`) when it is not `page` itself and was known
    /// (a bookmark made in the reader); nil otherwise. Shown, never used to find the page.
    public var printedPage: String?

    public init(citeKey: String, library: String? = nil, page: Int, lastPage: Int? = nil, printedPage: String? = nil) {
        self.citeKey = citeKey
        self.library = library
        self.page = page
        self.lastPage = lastPage
        self.printedPage = printedPage
    }

    /// The pages from `page` to `lastPage`.
    public var pages: ClosedRange<Int> { page...max(page, lastPage ?? page) }

    /// `p. 12` or `p. 12–14`; the printed page first when it is known and differs from the page
    /// of the file: `p. xii (#12)`, `p. 151 (#1–3)`.
    public var pageLabel: String {
        let range = lastPage.map { $0 > page ? "\(page)–\($0)" : "\(page)" } ?? "\(page)"
        if let printedPage, printedPage != String(page) { return "p. \(printedPage) (#\(range))" }
        return "p. \(range)"
    }
}
