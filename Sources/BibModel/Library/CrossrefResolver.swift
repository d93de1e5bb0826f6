/// BibTeX `crossref` inheritance over a whole library.
///
/// A child gets every field its parent has and it lacks (bookkeeping fields such as linked files,
/// dates added and read flags excepted), and `booktitle` from the parent's `title`. Chains are
/// followed parent-first without recursion, so a 10,000-deep chain is as safe as a short one.
enum CrossrefResolver {
    /// Fields that describe the parent record itself, never the child.
    static let notInherited: Set<String> = [
        "crossref", "xref", "ids", "key", "label", "file", "pdf", "local-url", "date-added",
        "date-modified", "read", "rating", "groups", "timestamp", "owner", "abstract", "keywords",
        "annote", "note", "doi", "eprint", "url", "urldate", "entryset",
    ]

    static func resolve(_ entries: inout [Entry], keyIndex: KeyIndex) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let count = entries.count
        var parentOf = [Int](repeating: -1, count: count)
        for index in 0..<count {
            guard let field = entries[index].field(.crossref) else { continue }
            let parentKey = entries[index].decodedText(of: field).trimmedASCII
            guard let parent = keyIndex.firstPosition(of: parentKey.foldedKey) else {
                let entry = entries[index]
                diagnostics.append(Diagnostic(.warning, source: entry.source, offset: Int(field.nameOffset),
                                              message: "\(entry.key): crossref '\(parentKey)' not found"))
                continue
            }
            parentOf[index] = parent
        }
        // 0 = not yet, 1 = on the current chain, 2 = resolved.
        var state = [UInt8](repeating: 0, count: count)
        for start in 0..<count where state[start] == 0 && parentOf[start] >= 0 {
            var chain: [Int] = []
            var current = start
            while current >= 0 && state[current] == 0 {
                state[current] = 1
                chain.append(current)
                current = parentOf[current]
            }
            if current >= 0 && state[current] == 1 {
                // `current` closes a cycle: break it there.
                let entry = entries[current]
                let parent = entries[parentOf[current]]
                diagnostics.append(Diagnostic(.warning, source: entry.source, offset: entry.offset,
                                              message: "\(entry.key): crossref cycle through '\(parent.key)'; inheritance stops here"))
                parentOf[current] = -1
            }
            for child in chain.reversed() {
                if parentOf[child] >= 0 {
                    inherit(into: &entries[child], from: entries[parentOf[child]])
                }
                state[child] = 2
            }
        }
        return diagnostics
    }

    private static func inherit(into child: inout Entry, from parent: Entry) {
        var names = Set(child.fields.map(child.name(of:)))
        for field in parent.fields {
            let name = parent.name(of: field)
            guard !names.contains(name), !isBookkeeping(name) else { continue }
            child.appendField(lowercaseName: name, spelledName: parent.spelledName(of: field), text: parent.rawText(of: field),
                              nameOffset: Int(field.nameOffset), parent: parent.parent(of: field) ?? parent.key)
            names.insert(name)
        }
        if !names.contains("booktitle"), let title = parent.field(.title) {
            child.appendField(lowercaseName: "booktitle", spelledName: "booktitle", text: parent.rawText(of: title),
                              nameOffset: Int(title.nameOffset), parent: parent.key)
        }
    }

    private static func isBookkeeping(_ name: String) -> Bool {
        notInherited.contains(name) || name.hasPrefix("bdsk-")
    }
}
