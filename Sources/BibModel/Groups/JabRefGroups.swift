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
