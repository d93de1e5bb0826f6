import BibModel

/// The full-text index's answers for the `text:` terms of the search shown.
public struct FullTextResults: Sendable, Equatable, FullTextMatching {
    public let terms: [FullTextTerm]
    /// The references (positions in the library) whose PDFs hold each term.
    public let matches: [FullTextTerm: Set<Int>]
    /// The best pages of each reference, best first.
    public let pages: [Int: [FullTextPage]]

    public init(terms: [FullTextTerm], matches: [FullTextTerm: Set<Int>], pages: [Int: [FullTextPage]]) {
        self.terms = terms
        self.matches = matches
        self.pages = pages
    }

    public func entries(matching term: FullTextTerm) -> Set<Int> {
        matches[term] ?? []
    }

    /// Every reference that any term matched.
    public var matchedEntries: Set<Int> {
        matches.values.reduce(into: Set<Int>()) { $0.formUnion($1) }
    }

    /// The same answers with more references' pages.
    public func adding(pages more: [Int: [FullTextPage]]) -> FullTextResults {
        FullTextResults(terms: terms, matches: matches, pages: pages.merging(more) { _, new in new })
    }

    /// The words to highlight in snippets and in the page opened.
    public var highlightWords: [String] {
        terms.map { $0.words.joined(separator: " ") }
    }
}
