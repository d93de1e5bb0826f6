/// One paper a link names, with the pages it points at (none: the whole paper).
public struct PaperReference: Sendable, Equatable, Hashable {
    /// The paper's cite key.
    public var key: String
    /// Page ranges, in the order written (`12...14`, `20...20`); empty for the whole paper.
    public var pages: [ClosedRange<Int>]
    /// What the numbers in `pages` count: printed pages (the default) or pages of the file.
    public var numbering: PageNumbering

    /// A reference to the paper with cite key `key`, at `pages` (none: the whole paper), which
    /// count printed pages unless `numbering` says otherwise.
    public init(key: String, pages: [ClosedRange<Int>] = [], numbering: PageNumbering = .printed) {
        self.key = key
        self.pages = pages
        self.numbering = numbering
    }

    /// The first page pointed at, if any.
    public var firstPage: Int? { pages.first?.lowerBound }
}
