import BibModel

/// One page of a reference where the search's `text:` terms were found, with a snippet.
public struct FullTextPage: Sendable, Equatable {
    public let page: Int
    public let snippet: String

    public init(page: Int, snippet: String) {
        self.page = page
        self.snippet = snippet
    }
}
