/// A `text:` term of a query: words (each a prefix) or a phrase, looked up in the PDFs' text.
public struct FullTextTerm: Sendable, Hashable {
    public let words: [String]
    public let isPhrase: Bool

    public init(words: [String], isPhrase: Bool) {
        self.words = words
        self.isPhrase = isPhrase
    }

    /// The field name that sends a term to the PDFs' text.
    public static let field = "text"
}

extension Query {
    /// The `text:` terms in the query, in order, each once.
    public var fullTextTerms: [FullTextTerm] {
        var terms: [FullTextTerm] = []
        var seen = Set<FullTextTerm>()
        func collect(_ query: Query) {
            switch query {
            case .words(let field, let words) where field == FullTextTerm.field:
                for word in words {
                    let term = FullTextTerm(words: [word], isPhrase: false)
                    if seen.insert(term).inserted { terms.append(term) }
                }
            case .phrase(let field, let words) where field == FullTextTerm.field:
                let term = FullTextTerm(words: words, isPhrase: true)
                if seen.insert(term).inserted { terms.append(term) }
            case .and(let parts), .or(let parts):
                parts.forEach(collect)
            case .not(let inner):
                collect(inner)
            default:
                break
            }
        }
        collect(self)
        return terms
    }
}
