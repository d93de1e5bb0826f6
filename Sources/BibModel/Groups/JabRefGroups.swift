import Foundation

/// JabRef's groups, kept in `@Comment{jabref-meta: grouping:…}` (JabRef 4 and later) or
/// `@Comment{jabref-meta: groupstree:…}` (older).
///
/// The comment's line breaks are removed first; units end at an unescaped `;`, each is
/// `LEVEL TYPE:fields`, and the fields are separated by `;` escaped once more (`\;`). The tree
/// comes from the levels; each group's context says whether it stands alone, narrows its parent
/// (intersection) or gathers its children (union).
enum JabRefGroups {
    /// How a group relates to its parent and children.
    enum Hierarchy: Int {
        case independent = 0, intersection = 1, union = 2
    }

    struct Node {
        let level: Int
        let type: String
        let fields: [String]
    }

    /// The deepest group nesting kept: deeper groups are attached at this depth (with a
    /// warning), so that a hostile tree cannot exhaust the stack of anything that walks it.
    static let maxDepth = 32

    static func groups(in library: Library) -> [Group] {
        read(library).groups
    }

    /// A warning for each grouping comment whose tree was too deep or whose search groups were
    /// too complex to use as written.
    static func diagnostics(in library: Library) -> [Diagnostic] {
        read(library).problems
    }

    private static func read(_ library: Library) -> (groups: [Group], problems: [Diagnostic]) {
        var groups: [Group] = []
        var problems: [Diagnostic] = []
        for file in library.files {
            for comment in file.comments {
                let text = comment.text.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
                for prefix in ["jabref-meta: grouping:", "jabref-meta: groupstree:"] where text.hasPrefix(prefix) {
                    let nodes = parse(String(text.dropFirst(prefix.count)))
                    groups += tree(nodes, library: library).map { $0.kept(in: file.source.path) }
                    let place = "JabRef groups (\(prefix.dropFirst("jabref-meta: ".count).dropLast()))"
                    if let deepest = nodes.map(\.level).max(), deepest > maxDepth {
                        problems.append(Diagnostic(.warning, source: file.source, offset: comment.offset,
                                                   message: "\(place): groups nest \(deepest) levels deep; those below level \(maxDepth) are shown at level \(maxDepth)"))
                    }
                    for node in nodes where node.type == "SearchGroup" {
                        if case .unavailable(let reason) = rule(for: node, library: library).1 {
                            problems.append(Diagnostic(.warning, source: file.source, offset: comment.offset,
                                                       message: "\(place): \(reason)"))
                        }
                    }
                }
            }
        }
        return (groups, problems)
    }

    /// The units of a grouping comment.
    static func parse(_ body: String) -> [Node] {
        split(body).compactMap { unit in
            let trimmed = unit.trimmingCharacters(in: .whitespaces)
            guard let space = trimmed.firstIndex(of: " "), let level = Int(trimmed[..<space]) else { return nil }
            let rest = trimmed[trimmed.index(after: space)...]
            guard let colon = rest.firstIndex(of: ":") else { return nil }
            let type = String(rest[..<colon])
            let fields = split(String(rest[rest.index(after: colon)...]), keepTrailing: true)
            return Node(level: level, type: type, fields: fields)
        }
    }

    /// Splits at unescaped `;`, turning `\x` into `x`.
    static func split(_ text: String, keepTrailing: Bool = false) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ";" {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty || keepTrailing { parts.append(current) }
        return parts
    }

    /// Builds the tree from the levels (the level-0 AllEntriesGroup is the root and is dropped:
    /// bibread has its own All).
    private static func tree(_ nodes: [Node], library: Library) -> [Group] {
        let nodes = nodes.map { $0.level > maxDepth ? Node(level: maxDepth, type: $0.type, fields: $0.fields) : $0 }
        var index = 0
        func children(ofLevel level: Int, parentRule: Group.Rule?) -> [Group] {
            var result: [Group] = []
            while index < nodes.count, nodes[index].level > level {
                let node = nodes[index]
                index += 1
                let (name, own, hierarchy) = rule(for: node, library: library)
                var effective = own
                if hierarchy == .intersection, let parentRule { effective = .intersection([own, parentRule]) }
                var group = Group(name: name, kind: .jabref, rule: effective)
                group.children = children(ofLevel: node.level, parentRule: effective)
                group.children += automaticChildren(of: node, library: library)
                if hierarchy == .union {
                    group = Group(name: name, kind: .jabref, rule: .union([effective] + group.children.map(\.rule)),
                                  children: group.children)
                }
                result.append(group)
            }
            return result
        }
        // Skip the root AllEntriesGroup; its children are the top level.
        if let first = nodes.first, first.type == "AllEntriesGroup" {
            index = 1
            return children(ofLevel: first.level, parentRule: nil)
        }
        return children(ofLevel: -1, parentRule: nil)
    }

    private static func rule(for node: Node, library: Library) -> (String, Group.Rule, Hierarchy) {
        let field = { (index: Int) -> String in index < node.fields.count ? node.fields[index] : "" }
        let name = field(0)
        let hierarchy = Hierarchy(rawValue: Int(field(1)) ?? 0) ?? .independent
        switch node.type {
        case "AllEntriesGroup":
            return (name.isEmpty ? "All Entries" : name, .all, .independent)
        case "StaticGroup", "ExplicitGroup":
            // Members list the group in their `groups` field; old files also list keys inline.
            let inlineKeys = node.type == "ExplicitGroup" ? Array(node.fields.dropFirst(2)).filter { !$0.isEmpty } : []
            return (name, .jabrefStatic(name: name, keys: inlineKeys), hierarchy)
        case "KeywordGroup":
            let term = field(3)
            return (name, .jabrefKeyword(field: field(2).lowercased(), term: term,
                                         caseSensitive: field(4) == "1", regex: field(5) == "1"), hierarchy)
        case "SearchGroup":
            guard let query = JabRefSearch.parse(field(2)) else {
                return (name, .unavailable("the search group \"\(name)\" is too complex (more than \(JabRefSearch.maxTokens) terms or \(JabRefSearch.maxNesting) levels of nesting)"), hierarchy)
            }
            return (name, .jabrefSearch(query, caseSensitive: field(3) == "1", regex: field(4) == "1"), hierarchy)
        case "AutomaticKeywordGroup", "AutomaticPersonsGroup":
            return (name, .all, hierarchy)
        default:
            return (name, .unavailable("JabRef \(node.type) is not supported yet"), hierarchy)
        }
    }

    /// Automatic groups: one child per keyword (or person) found in the field.
    private static func automaticChildren(of node: Node, library: Library) -> [Group] {
        let fieldName = node.fields.count > 2 ? node.fields[2].lowercased() : "keywords"
        switch node.type {
        case "AutomaticKeywordGroup":
            let delimiter = node.fields.count > 3 ? node.fields[3] : ","
            let extract: @Sendable (Entry) -> [String] = { entry in
                (entry.value(named: fieldName) ?? "").components(separatedBy: delimiter.isEmpty ? "," : delimiter)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            let values = Set(library.entries.flatMap(extract))
            return values.sorted().map { value in
                Group(name: value, kind: .jabref, rule: .value(value, index: "jabref keywords \(fieldName) \(delimiter)", extract: extract))
            }
        case "AutomaticPersonsGroup":
            let extract: @Sendable (Entry) -> [String] = { entry in NameList(raw: entry.raw(fieldName) ?? "").names.map(\.last) }
            let values = Set(library.entries.flatMap(extract))
            return values.sorted().map { value in
                Group(name: value, kind: .jabref, rule: .value(value, index: "jabref persons \(fieldName)", extract: extract))
            }
        default:
            return []
        }
    }
}

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
