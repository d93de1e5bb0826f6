/// A parsed search query: the one language of `bibread list --search` and of search as you type.
///
/// ```
/// author:knuth tex -errata year:1984..1990
/// (a:lamport | a:knuth) t:"document preparation" NOT kw:draft year:>2010
/// ```
/// Terms are ANDed; `OR` or `|` between them; `-term` or `NOT term`; `"quoted phrase"`;
/// parentheses; `field:term` for any field with the aliases `a:` author, `t:` title, `y:` year,
/// `k:` key, `kw:` keywords, `j:` journal; ranges `year:1990..2000`, `year:>2010`, `year:<=1999`.
public indirect enum Query: Sendable, Equatable {
    /// Words that must all start words of the field (prefix match), or of any field.
    case words(field: String?, [String])
    /// A phrase that must occur in the field (or any field) as consecutive words.
    case phrase(field: String?, [String])
    /// A numeric range on a field (both bounds inclusive; nil means open).
    case range(field: String, lower: Int?, upper: Int?)
    case and([Query])
    case or([Query])
    case not(Query)
    /// The empty query: matches everything.
    case all

    /// Field aliases, as users type them.
    public static let aliases: [String: String] = [
        "a": "author", "t": "title", "y": "year", "k": "key", "kw": "keywords", "j": "journal",
    ]

    /// Parses a query; a malformed one throws a `QueryError` that points at the position.
    public init(parsing text: String) throws {
        var parser = QueryParser(text: text)
        self = try parser.parse()
    }
}

private struct QueryParser {
    private enum Token: Equatable {
        case word(String, field: String?)
        case phrase(String, field: String?)
        case open, close, or, not
    }

    private var tokens: [(token: Token, column: Int)] = []
    private var index = 0
    /// How many parentheses and negations enclose the term being read.
    private var nesting = 0
    /// More would only be hostile, and parsing, evaluating and freeing a query recurse.
    static let maximumNesting = 100
    private let length: Int

    init(text: String) {
        length = text.count
        tokenize(Array(text))
    }

    private var tokenizeError: QueryError?

    private mutating func tokenize(_ characters: [Character]) {
        var position = 0
        while position < characters.count {
            let character = characters[position]
            let column = position + 1
            if character.isWhitespace {
                position += 1
                continue
            }
            switch character {
            case "(":
                tokens.append((.open, column)); position += 1; continue
            case ")":
                tokens.append((.close, column)); position += 1; continue
            case "|":
                tokens.append((.or, column)); position += 1; continue
            case "-" where position + 1 < characters.count && !characters[position + 1].isWhitespace:
                tokens.append((.not, column)); position += 1; continue
            default:
                break
            }
            // A word, possibly `field:` followed by a word or a phrase.
            var field: String?
            var start = position
            if character != "\"" {
                var end = position
                while end < characters.count, !characters[end].isWhitespace, !"()|\":\\".contains(characters[end]) { end += 1 }
                if end < characters.count, characters[end] == ":", end > position {
                    let name = String(characters[position..<end]).lowercased()
                    field = Query.aliases[name] ?? name
                    start = end + 1
                    if start >= characters.count || characters[start].isWhitespace {
                        tokenizeError = QueryError(column: end + 1, message: "'\(name):' needs a value after it")
                        return
                    }
                }
            }
            if start < characters.count, characters[start] == "\"" {
                guard let closing = characters[(start + 1)...].firstIndex(of: "\"") else {
                    tokenizeError = QueryError(column: start + 1, message: QueryError.unclosedQuote)
                    return
                }
                tokens.append((.phrase(String(characters[(start + 1)..<closing]), field: field), column))
                position = closing + 1
                continue
            }
            var end = start
            // A `"` after a backslash is a LaTeX accent (`G{\"o}del`), not a quote.
            while end < characters.count, !characters[end].isWhitespace,
                  !"()|".contains(characters[end]),
                  characters[end] != "\"" || (end > start && characters[end - 1] == "\\") { end += 1 }
            let word = String(characters[start..<end])
            if field == nil && (word == "OR") {
                tokens.append((.or, column))
            } else if field == nil && word == "NOT" {
                tokens.append((.not, column))
            } else if field == nil && word == "AND" {
                // `AND` is what juxtaposition means already.
            } else {
                // A word's column is where its value starts (after `field:`): the field's name
                // may be an alias of another length (`a:` is `author:`), so the parser could not
                // work it out later.
                tokens.append((.word(word, field: field), start + 1))
            }
            position = end
        }
    }

    mutating func parse() throws -> Query {
        if let tokenizeError { throw tokenizeError }
        if tokens.isEmpty { return .all }
        let query = try parseOr()
        if index < tokens.count {
            let (token, column) = tokens[index]
            throw QueryError(column: column, message: token == .close ? "this ')' has no '(' before it" : "unexpected text")
        }
        return query
    }

    private mutating func parseOr() throws -> Query {
        var alternatives = [try parseAnd()]
        while index < tokens.count, tokens[index].token == .or {
            let column = tokens[index].column
            index += 1
            guard index < tokens.count, tokens[index].token != .close, tokens[index].token != .or else {
                throw QueryError(column: column, message: "'OR' needs a term after it")
            }
            alternatives.append(try parseAnd())
        }
        return alternatives.count == 1 ? alternatives[0] : .or(alternatives)
    }

    private mutating func parseAnd() throws -> Query {
        var parts: [Query] = []
        while index < tokens.count, tokens[index].token != .or, tokens[index].token != .close {
            parts.append(try parseUnary())
        }
        guard !parts.isEmpty else {
            let column = index < tokens.count ? tokens[index].column : length + 1
            throw QueryError(column: column, message: "expected a search term")
        }
        // Terms with no words (`-` or `&` on their own, as when still typing) match everything.
        let terms = parts.filter { $0 != .all }
        if terms.isEmpty { return .all }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    private mutating func parseUnary() throws -> Query {
        let (token, column) = tokens[index]
        switch token {
        case .not:
            index += 1
            guard index < tokens.count, tokens[index].token != .close, tokens[index].token != .or else {
                throw QueryError(column: column, message: "'-' or 'NOT' needs a term after it")
            }
            try enterNesting(at: column)
            defer { nesting -= 1 }
            return .not(try parseUnary())
        case .open:
            index += 1
            try enterNesting(at: column)
            defer { nesting -= 1 }
            let inner = try parseOr()
            guard index < tokens.count, tokens[index].token == .close else {
                throw QueryError(column: column, message: "this '(' is never closed")
            }
            index += 1
            return inner
        case .word(let word, let field):
            index += 1
            return try term(word, field: field, column: column)
        case .phrase(let phrase, let field):
            index += 1
            let words = FoldedWords.of(Folding.fold(LaTeX.decode(phrase)))
            return words.isEmpty ? .all : .phrase(field: field, words)
        case .close, .or:
            throw QueryError(column: column, message: "expected a search term")
        }
    }

    private mutating func enterNesting(at column: Int) throws {
        nesting += 1
        guard nesting <= QueryParser.maximumNesting else {
            throw QueryError(column: column, message: "too deeply nested: more than \(QueryParser.maximumNesting) levels of parentheses and negations")
        }
    }

    /// A word, or a numeric range for `field:1990..2000` and `field:>2010`.
    private func term(_ word: String, field: String?, column: Int) throws -> Query {
        if let field, let range = try numericRange(word, column: column) {
            return .range(field: field, lower: range.lower, upper: range.upper)
        }
        let words = FoldedWords.of(Folding.fold(LaTeX.decode(word)))
        if words.isEmpty { return .all }
        return .words(field: field, words)
    }

    private func numericRange(_ text: String, column: Int) throws -> (lower: Int?, upper: Int?)? {
        let number = { (part: Substring, offset: Int) throws -> Int? in
            if part.isEmpty { return nil }
            guard let value = Int(part) else {
                throw QueryError(column: column + offset, message: "'\(part)' is not a number")
            }
            return value
        }
        if let dots = text.range(of: "..") {
            let lower = try number(text[..<dots.lowerBound], 0)
            let upper = try number(text[dots.upperBound...], text.distance(from: text.startIndex, to: dots.upperBound))
            if let lower, let upper, lower > upper {
                throw QueryError(column: column, message: "the range \(lower)..\(upper) is empty")
            }
            return (lower, upper)
        }
        for (prefix, make) in [(">=", { (value: Int) in (Optional(value), Int?.none) }),
                               ("<=", { (value: Int) in (Int?.none, Optional(value)) }),
                               (">", { (value: Int) in (Optional(value + 1), Int?.none) }),
                               ("<", { (value: Int) in (Int?.none, Optional(value - 1)) })] where text.hasPrefix(prefix) {
            guard let value = try number(text.dropFirst(prefix.count), prefix.count) else {
                throw QueryError(column: column, message: "'\(prefix)' needs a number after it")
            }
            return make(value)
        }
        return nil
    }
}
