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

    static func groups(in library: Library) -> [Group] {
        var groups: [Group] = []
        for file in library.files {
            for comment in file.comments {
                let text = comment.text.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
                for prefix in ["jabref-meta: grouping:", "jabref-meta: groupstree:"] where text.hasPrefix(prefix) {
                    groups += tree(parse(String(text.dropFirst(prefix.count))), library: library)
                }
            }
        }
        return groups
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
            let query = JabRefSearch.parse(field(2))
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

    static func parse(_ text: String) -> JabRefSearch {
        var tokens = tokenize(text)[...]
        return parseOr(&tokens) ?? .contains(field: nil, value: text)
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

    private static func parseOr(_ tokens: inout ArraySlice<String>) -> JabRefSearch? {
        guard var left = parseAnd(&tokens) else { return nil }
        while tokens.first?.lowercased() == "or" {
            tokens.removeFirst()
            guard let right = parseAnd(&tokens) else { break }
            left = .or(left, right)
        }
        return left
    }

    private static func parseAnd(_ tokens: inout ArraySlice<String>) -> JabRefSearch? {
        guard var left = parseUnary(&tokens) else { return nil }
        while let next = tokens.first, next != ")", next.lowercased() != "or" {
            if next.lowercased() == "and" { tokens.removeFirst() }
            guard let right = parseUnary(&tokens) else { break }
            left = .and(left, right)
        }
        return left
    }

    private static func parseUnary(_ tokens: inout ArraySlice<String>) -> JabRefSearch? {
        guard let token = tokens.popFirst() else { return nil }
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
                return condition(field: token.lowercased(), op: op, value: value)
            }
            if let range = token.range(of: op), range.lowerBound != token.startIndex {
                return condition(field: String(token[..<range.lowerBound]).lowercased(), op: op,
                                 value: String(token[range.upperBound...]))
            }
        }
        return .contains(field: nil, value: token)
    }

    private static func condition(field: String, op: String, value: String) -> JabRefSearch {
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
