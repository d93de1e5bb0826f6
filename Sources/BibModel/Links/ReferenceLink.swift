/// What a reader means to do with the references a link names.
public enum Intention: String, CaseIterable, Sendable, Codable {
    case read, study, cite, listen
}

/// What the page numbers of a link or citation count.
///
/// What a person reads, types or cites is the printed page: `KEY:151` and `[@key, p. 151]` mean
/// the page printed 151 (its page label), which in a journal article whose pages run 151–256 is
/// the first page of the file. `KEY:#3` (in a link `KEY:%233`) forces the third page of the file.
public enum PageNumbering: String, Sendable, Hashable {
    /// Printed page numbers (page labels), as citations mean them.
    case printed
    /// Pages of the file, counted from 1 (`#N`).
    case physical
}

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

/// A link to references: `bibread://open?refs=[KEY:12-14,KEY:20],[KEY2]&library=NAME&intention=read`.
///
/// `refs` is a list of bracketed groups, one per paper; each group holds comma-separated
/// references to that paper: its cite key, optionally with a page (`KEY:12`) or a page range
/// (`KEY:12-14` or `KEY:12-KEY:14`); the numbers are printed pages (page labels), and `%23`
/// before them (`KEY:%2312`, an escaped `#`) makes them pages of the file. `intention` defaults to `read`; `library` is optional.
///
/// `parse(_:)` reads such links, bare targets (`KEY`, `KEY:12`) and citations as written in
/// manuscripts (pandoc `[@key, p. 33]`, LaTeX `\cite[p.~5]{key}`); `url` writes the canonical link.
public struct ReferenceLink: Sendable, Equatable {
    /// The papers named, in the order written, each with its pages.
    public var papers: [PaperReference]
    /// The name of the library to look the keys up in; nil for the default one.
    public var library: String?
    /// What the reader means to do with the papers.
    public var intention: Intention

    /// A link to `papers` in `library` (nil: the default one), opened to `intention`.
    public init(papers: [PaperReference], library: String? = nil, intention: Intention = .read) {
        self.papers = papers
        self.library = library
        self.intention = intention
    }
}
