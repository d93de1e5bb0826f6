/// BibTeX `crossref` inheritance over a whole library.
///
/// A child gets every field its parent has and it lacks (bookkeeping fields such as linked files,
/// dates added and read flags excepted), and `booktitle` from the parent's `title`. Chains are
/// followed parent-first without recursion, so a 10,000-deep chain is as safe as a short one.
///
/// What is inherited is bounded by the size of the files: a chain in which every level adds a
/// field of its own would otherwise give its first entry every field of the chain, and the
/// library a number of fields that grows with the square of the chain's length.
enum CrossrefResolver {
    /// Fields that describe the parent record itself, never the child.
    static let notInherited: Set<String> = [
        "crossref", "xref", "ids", "key", "label", "file", "pdf", "local-url", "date-added",
        "date-modified", "read", "rating", "groups", "timestamp", "owner", "abstract", "keywords",
        "annote", "note", "doi", "eprint", "url", "urldate", "entryset",
    ]

    /// The bytes of inherited values (plus `fieldCost` a field) a library may hold: 8 times the
    /// size of its files and 1 MiB, far more than real libraries inherit.
    static func inheritanceLimit(sourceSize: Int) -> Int { 8 * sourceSize + (1 << 20) }

    /// What one inherited field costs besides its value's bytes.
    static let fieldCost = 32

    /// Inherits every entry's `crossref` fields; `sourceSize` is the size of the files read.
    static func resolve(_ entries: inout [Entry], keyIndex: KeyIndex, sourceSize: Int) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let limit = inheritanceLimit(sourceSize: sourceSize)
        var budget = limit
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
                if parentOf[child] >= 0, !inherit(into: &entries[child], from: entries[parentOf[child]], budget: &budget) {
                    let entry = entries[child]
                    diagnostics.append(Diagnostic(.warning, source: entry.source, offset: entry.offset,
                                                  message: "\(entry.key): crossref inheritance stops: the fields inherited in this library would pass \(limit) bytes (8 × the files' size + 1 MiB)"))
                }
                state[child] = 2
            }
        }
        return diagnostics
    }

    /// Gives `child` the fields of `parent` it lacks while `budget` lasts; false when it ran out.
    private static func inherit(into child: inout Entry, from parent: Entry, budget: inout Int) -> Bool {
        var names = Set(child.fields.map(child.name(of:)))
        var slots: [String: UInt32] = [:]
        for field in parent.fields {
            let name = parent.name(of: field)
            guard !names.contains(name), !isBookkeeping(name) else { continue }
            let text = parent.rawText(of: field)
            guard take(text, from: &budget) else { return false }
            let slot = child.parentSlot(for: parent.parent(of: field) ?? parent.key, known: &slots)
            child.appendInheritedField(lowercaseName: name, spelledName: parent.spelledName(of: field), text: text,
                                       nameOffset: Int(field.nameOffset), parentSlot: slot)
            names.insert(name)
        }
        if !names.contains("booktitle"), let title = parent.field(.title) {
            let text = parent.rawText(of: title)
            guard take(text, from: &budget) else { return false }
            child.appendInheritedField(lowercaseName: "booktitle", spelledName: "booktitle", text: text,
                                       nameOffset: Int(title.nameOffset), parentSlot: child.parentSlot(for: parent.key, known: &slots))
        }
        return true
    }

    /// Takes the cost of inheriting `text` from `budget`, if it is enough.
    private static func take(_ text: String, from budget: inout Int) -> Bool {
        let cost = fieldCost + text.utf8.count
        guard cost <= budget else { return false }
        budget -= cost
        return true
    }

    private static func isBookkeeping(_ name: String) -> Bool {
        notInherited.contains(name) || name.hasPrefix("bdsk-")
    }
}
