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
        // Read through a buffer pointer, where each entry is looked at in place (not copied,
        // with a retain and a release of everything it holds, as `entries[index]` of an inout
        // array is); only entries whose well-known fields include a crossref are read further.
        entries.withUnsafeBufferPointer { all in
            for index in all.indices where all[index].has(.crossref) {
                guard let field = all[index].field(.crossref) else { continue }
                let parentKey = all[index].decodedText(of: field).trimmedASCII
                guard let parent = keyIndex.firstPosition(of: parentKey.foldedKey) else {
                    diagnostics.append(Diagnostic(.warning, source: all[index].source, offset: Int(field.nameOffset),
                                                  message: "\(all[index].key): crossref '\(parentKey)' not found"))
                    continue
                }
                parentOf[index] = parent
            }
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
    ///
    /// Names are compared by their group in the child's file (`FieldNameStore`), not as
    /// strings: a parent in the same file (the usual case) needs no look-up at all.
    private static func inherit(into child: inout Entry, from parent: Entry, budget: inout Int) -> Bool {
        let names = child.source.fieldNames
        let parentNames = parent.source.fieldNames
        let sameFile = names === parentNames
        // Every field of the parent and a booktitle, at most.
        child.reserveInheritedFields(parent.fields.count + 1)
        var present = GroupSet()
        for field in child.fields { present.insert(names.groups[Int(field.nameID)]) }
        var slots: [String: UInt32] = [:]
        var lastSlot: (parent: String, slot: UInt32)?
        for field in parent.fields {
            let parentID = Int(field.nameID)
            if sameFile {
                if present.contains(names.groups[parentID]) { continue }
            } else if let group = names.group(ofLowercase: parentNames.lowercase[parentID]), present.contains(group) {
                continue
            }
            guard !field.kind.isBookkeeping else { continue }
            let text = parent.rawText(of: field)
            guard take(text, from: &budget) else { return false }
            let from = parent.parent(of: field) ?? parent.key
            let slot: UInt32
            if let lastSlot, lastSlot.parent == from {
                slot = lastSlot.slot
            } else {
                slot = child.parentSlot(for: from, known: &slots)
                lastSlot = (from, slot)
            }
            let nameID = sameFile ? field.nameID
                : names.intern(spelled: parentNames.spellings[parentID], lowercase: parentNames.lowercase[parentID])
            child.appendInheritedField(nameID: nameID, text: text, nameOffset: Int(field.nameOffset), parentSlot: slot)
            present.insert(names.groups[Int(nameID)])
        }
        let hasBooktitle = names.group(ofLowercase: "booktitle").map(present.contains) ?? false
        if !hasBooktitle, let title = parent.field(.title) {
            let text = parent.rawText(of: title)
            guard take(text, from: &budget) else { return false }
            let nameID = names.intern(spelled: "booktitle", lowercase: "booktitle")
            child.appendInheritedField(nameID: nameID, text: text, nameOffset: Int(title.nameOffset),
                                       parentSlot: child.parentSlot(for: parent.key, known: &slots))
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
}

/// A set of name groups of one file (`FieldNameStore.groups`): a short list while it is small
/// (an entry has a few dozen fields, a file thousands of names), a hash set beyond.
private struct GroupSet {
    private var few: [Int] = []
    private var many: Set<Int>?

    /// The most groups kept in the list.
    private static let listLimit = 32

    func contains(_ group: Int) -> Bool {
        if let many { return many.contains(group) }
        return few.contains(group)
    }

    mutating func insert(_ group: Int) {
        if many != nil {
            many?.insert(group)
        } else if !few.contains(group) {
            few.append(group)
            if few.count > Self.listLimit {
                many = Set(few)
                few = []
            }
        }
    }
}
