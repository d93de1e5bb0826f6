import Foundation

/// JabRef's simple search-group queries: `field = value` (contains), `field == value` (equals),
/// `field != value`, `field =~ regex`, joined by `and`, `or`, `not` and parentheses; a bare word
/// searches every field.
indirect enum JabRefSearch: Sendable {
    case contains(field: String?, value: String)
    case equals(field: String?, value: String)
    case matches(field: String?, pattern: String)
    case and(JabRefSearch, JabRefSearch)
    case or(JabRefSearch, JabRefSearch)
    case not(JabRefSearch)

    /// The most tokens a search may have: the and/or chains they make are evaluated recursively.
    static let maxTokens = 1_000
    /// The deepest nesting of parentheses and `not` a search may have.
    static let maxNesting = 32

    /// The search in `text`, or nil when it is too long or too deeply nested to evaluate safely.
    static func parse(_ text: String) -> JabRefSearch? {
        let all = tokenize(text)
        guard all.count <= maxTokens else { return nil }
        var tokens = all[...]
        var parser = Parser()
        let result = parser.parseOr(&tokens)
        if parser.tooDeep { return nil }
        return result ?? .contains(field: nil, value: text)
    }

    private static func tokenize(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                continue
            }
            if !quoted && (character == " " || character == "(" || character == ")") {
                if !current.isEmpty { tokens.append(current) }
                current = ""
                if character != " " { tokens.append(String(character)) }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// A recursive-descent parser that counts how deep it is.
    private struct Parser {
        var depth = 0
        var tooDeep = false

        mutating func parseOr(_ tokens: inout ArraySlice<String>) -> JabRefSearch? {
            guard var left = parseAnd(&tokens) else { return nil }
            while tokens.first?.lowercased() == "or" {
                tokens.removeFirst()
                guard let right = parseAnd(&tokens) else { break }
                left = .or(left, right)
            }
            return left
        }

        mutating func parseAnd(_ tokens: inout ArraySlice<String>) -> JabRefSearch? {
            guard var left = parseUnary(&tokens) else { return nil }
            while let next = tokens.first, next != ")", next.lowercased() != "or" {
                if next.lowercased() == "and" { tokens.removeFirst() }
                guard let right = parseUnary(&tokens) else { break }
                left = .and(left, right)
            }
            return left
        }

        mutating func parseUnary(_ tokens: inout ArraySlice<String>) -> JabRefSearch? {
            guard let token = tokens.popFirst() else { return nil }
            if token.lowercased() == "not" || token == "(" {
                depth += 1
                defer { depth -= 1 }
                guard depth <= JabRefSearch.maxNesting else {
                    tooDeep = true
                    tokens = []
                    return nil
                }
            }
            if token.lowercased() == "not" { return parseUnary(&tokens).map { .not($0) } }
            if token == "(" {
                let inner = parseOr(&tokens)
                if tokens.first == ")" { tokens.removeFirst() }
                return inner
            }
            // `field = value` written as three tokens, or joined (`author=knuth`).
            for op in ["=~", "==", "!=", "="] {
                if tokens.first == op {
                    tokens.removeFirst()
                    let value = tokens.popFirst() ?? ""
                    return JabRefSearch.condition(field: token.lowercased(), op: op, value: value)
                }
                if let range = token.range(of: op), range.lowerBound != token.startIndex {
                    return JabRefSearch.condition(field: String(token[..<range.lowerBound]).lowercased(), op: op,
                                     value: String(token[range.upperBound...]))
                }
            }
            return .contains(field: nil, value: token)
        }
    }

    fileprivate static func condition(field: String, op: String, value: String) -> JabRefSearch {
        let target: String? = field == "anyfield" || field == "any" ? nil : field
        switch op {
        case "=~": return .matches(field: target, pattern: value)
        case "==": return .equals(field: target, value: value)
        case "!=": return .not(.equals(field: target, value: value))
        default: return .contains(field: target, value: value)
        }
    }

    /// True when the entry matches; with `regex`, plain `field = value` terms are regular
    /// expressions, as JabRef's search groups with the regex flag treat them.
    func matches(_ entry: Entry, caseSensitive: Bool, regex: Bool = false) -> Bool {
        func texts(_ field: String?) -> [String] {
            guard let field else { return [entry.key] + entry.fields.map { entry.decodedText(of: $0) } }
            return entry.value(named: field).map { [$0] } ?? []
        }
        func fold(_ text: String) -> String { caseSensitive ? text : text.lowercased() }
        switch self {
        case .contains(let field, let value):
            if regex { return JabRefSearch.matches(field: field, pattern: value).matches(entry, caseSensitive: caseSensitive) }
            return texts(field).contains { fold($0).contains(fold(value)) }
        case .equals(let field, let value):
            return texts(field).contains { fold($0) == fold(value) }
        case .matches(let field, let pattern):
            guard let regex = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else {
                return false
            }
            return texts(field).contains { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
        case .and(let left, let right):
            return left.matches(entry, caseSensitive: caseSensitive, regex: regex)
                && right.matches(entry, caseSensitive: caseSensitive, regex: regex)
        case .or(let left, let right):
            return left.matches(entry, caseSensitive: caseSensitive, regex: regex)
                || right.matches(entry, caseSensitive: caseSensitive, regex: regex)
        case .not(let inner):
            return !inner.matches(entry, caseSensitive: caseSensitive, regex: regex)
        }
    }
}
