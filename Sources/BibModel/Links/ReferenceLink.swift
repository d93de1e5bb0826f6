

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
