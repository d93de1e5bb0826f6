import Foundation

/// The fields of one entry as edits change them, and the splices that write the changes in the
/// style of the entry's own text.
struct EntryDraft {
    let entry: Entry
    let layout: EntryLayout
    let text: [UInt8]
    let conventions: LibraryConventions
    /// The entry's own fields as written: spelled name and raw value, by lower-case name (the
    /// first of duplicates, as the parser keeps it).
    private var current: [String: (name: String, value: String)] = [:]
    /// The changes so far, in the order first made, by lower-case name.
    private var pending: [(lower: String, name: String, value: String?)] = []
    private var explicit: Set<String> = []

    init(entry: Entry, layout: EntryLayout, text: [UInt8], conventions: LibraryConventions) {
        self.entry = entry
        self.layout = layout
        self.text = text
        self.conventions = conventions
        for field in entry.fields where !field.isInherited {
            let lower = entry.name(of: field)
            if current[lower] == nil { current[lower] = (entry.spelledName(of: field), entry.rawText(of: field)) }
        }
    }

    /// True when the layout found every own field where the parser did.
    static func matches(_ layout: EntryLayout, _ entry: Entry) -> Bool {
        let starts = Set(layout.slots.map(\.nameStart))
        return entry.fields.allSatisfy { $0.isInherited || starts.contains(Int($0.nameOffset)) }
    }

    /// The fields that changed, with their values before and after.
    var changes: [FieldChange] {
        pending.compactMap { change in
            let old = current[change.lower]?.value
            return old == change.value ? nil : FieldChange(name: current[change.lower]?.name ?? change.name,
                                                           oldValue: old, newValue: change.value)
        }
    }

    func setsExplicitly(_ name: String) -> Bool { explicit.contains(name.lowercased()) }

    /// The value of a field now (after the changes so far), nil when absent.
    func value(of name: String) -> String? {
        let lower = name.lowercased()
        if let change = pending.last(where: { $0.lower == lower }) { return change.value }
        return current[lower]?.value
    }

    mutating func set(_ name: String, to value: String?) {
        let lower = name.lowercased()
        if let index = pending.firstIndex(where: { $0.lower == lower }) {
            pending[index].value = value
        } else {
            pending.append((lower, name, value))
        }
    }

    // MARK: - Edits

    /// Applies one edit to the fields; a group edit kept in a comment is returned instead.
    mutating func apply(_ edit: EntryEdit, library: Library, file: BibFile) throws(EditError) -> GroupCommentEdit? {
        switch edit {
        case .setField(let name, let value):
            try checkName(name)
            explicit.insert(name.lowercased())
            set(name, to: try checked(value, field: name))
        case .removeField(let name):
            try checkName(name)
            explicit.insert(name.lowercased())
            set(name, to: nil)
        case .markRead(let read):
            let field = conventions.readField
            let isRead = value(of: field).map { conventions.dialect == .jabRef ? $0.trimmed.lowercased() == "read" : SmartCondition.isTrue($0) } ?? false
            if isRead != read || (value(of: field) != nil && value(of: field)?.trimmed != conventions.readValue(read)) {
                if read || value(of: field) != nil { set(field, to: conventions.readValue(read)) }
            }
        case .rate(let rating):
            guard (0...5).contains(rating) else {
                throw EditError(.invalidArgument, "a rating is 0 (none) to 5, not \(rating)")
            }
            let field = conventions.ratingField
            let wanted = conventions.ratingValue(rating)
            if value(of: field)?.trimmed != wanted { set(field, to: wanted) }
        case .addKeywords(let words):
            try add(words, to: conventions.keywordsField, separator: conventions.keywordSeparator, what: "keyword")
        case .removeKeywords(let words):
            remove(words, from: conventions.keywordsField)
        case .addToGroup(let name), .removeFromGroup(let name):
            let adding = if case .addToGroup = edit { true } else { false }
            return try group(name, adding: adding, library: library, file: file)
        }
        return nil
    }

    private mutating func group(_ name: String, adding: Bool, library: Library, file: BibFile) throws(EditError) -> GroupCommentEdit? {
        if conventions.dialect == .jabRef {
            if conventions.hasLegacyJabRefGroups {
                throw JabRefGroupNames.legacyRefusal(path: file.source.path)
            }
            let names = JabRefGroupNames.explicitGroups(in: file)
            guard names.contains(name) else {
                throw EditError(.unknownGroup, "no JabRef explicit group named \"\(name)\" in \(file.source.path)" + JabRefGroupNames.listing(names))
            }
            let separator = LibraryConventions.separator(in: library.entries.filter { $0.source === file.source }, field: "groups")
                ?? conventions.keywordSeparator
            if adding {
                try add([name], to: "groups", separator: separator, what: "group name")
            } else {
                remove([name], from: "groups", ignoringCase: false)
            }
            return nil
        }
        return try GroupCommentEdit(group: name, key: entry.key, adding: adding, file: file)
    }

    private mutating func add(_ words: [String], to field: String, separator: String, what: String) throws(EditError) {
        var value = self.value(of: field)
        var present = Set(KeywordList.items(in: value ?? "").map { $0.text.lowercased() })
        for word in words {
            let word = word.trimmed
            guard !word.isEmpty, !word.contains(where: { ",;".contains($0) }) else {
                throw EditError(.invalidArgument, "a \(what) cannot be empty or hold ',' or ';': '\(word)'")
            }
            _ = try checked(word, field: field)
            guard !present.contains(word.lowercased()) else { continue }
            present.insert(word.lowercased())
            let own = value.flatMap { LibraryConventions.separator(in: $0) } ?? separator
            value = (value?.trimmed.isEmpty ?? true) ? word : (value ?? "") + own + word
        }
        if value != self.value(of: field) { set(current[field.lowercased()]?.name ?? field, to: value) }
    }

    /// Removes items, with the separator after each (before it, for the last), keeping the
    /// other items and separators as written; an empty list removes the field.
    private mutating func remove(_ words: [String], from field: String, ignoringCase: Bool = true) {
        guard var value = self.value(of: field) else { return }
        let targets = Set(words.map { ignoringCase ? $0.trimmed.lowercased() : $0.trimmed })
        while let item = KeywordList.items(in: value).first(where: { targets.contains(ignoringCase ? $0.text.lowercased() : $0.text) }) {
            value.replaceSubrange(item.removal, with: "")
        }
        let result: String? = value.trimmed.isEmpty ? nil : value
        if result != self.value(of: field) { set(current[field.lowercased()]?.name ?? field, to: result) }
    }

    private func checkName(_ name: String) throws(EditError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ isIdentifierByte($0) && $0 < 0x80 }) else {
            throw EditError(.invalidArgument, "'\(name)' is not a field name (letters, digits and -_.:+/ only)")
        }
    }

    /// `value` as it will be written: line breaks in the entry's line ending; refused when it is
    /// not valid BibTeX or the file's encoding cannot hold it.
    private func checked(_ value: String, field: String) throws(EditError) -> String {
        var depth = 0
        for scalar in value.unicodeScalars {
            if scalar == "{" { depth += 1 }
            if scalar == "}" { depth -= 1 }
            if depth < 0 {
                throw EditError(.invalidValue, "the value of '\(field)' closes a brace it never opened; braces in a BibTeX value must balance")
            }
            if TerminalText.isControl(scalar) && scalar != "\n" && scalar != "\t" && scalar != "\r" {
                throw EditError(.invalidValue, String(format: "the value of '\(field)' holds the control character U+%04X", scalar.value))
            }
        }
        guard depth == 0 else {
            throw EditError(.invalidValue, "the value of '\(field)' leaves \(depth) '{' unclosed; braces in a BibTeX value must balance")
        }
        let ending = String(decoding: layout.lineEnding(in: text), as: UTF8.self)
        let lines = value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let bytes = Array(("\n" + lines).utf8)
        for index in bytes.indices where bytes[index] == 0x0A && index > 0 {
            if EntryLayout.looksLikeEntryStart(bytes, after: index) {
                throw EditError(.invalidValue, "a line of the value of '\(field)' starts like a new entry ('@type{'), which BibTeX would read as one")
            }
        }
        if case .failure(let character) = entry.source.encoding.encode(lines) {
            throw EditError(.unencodable, "\(character.described) in the value of '\(field)' cannot be written in \(entry.source.path), which is in \(entry.source.encoding.rawValue); write it as LaTeX (for example {\\\"o} for ö) or convert the file to UTF-8")
        }
        return ending == "\n" ? lines : lines.replacingOccurrences(of: "\n", with: ending)
    }
}

extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// The items of a keyword (or JabRef `groups`) list, split at `,` and `;`, with the range each
/// takes together with one separator next to it.
enum KeywordList {
    struct Item {
        let text: String
        let removal: Range<String.Index>
    }

    static func items(in value: String) -> [Item] {
        var pieces: [Range<String.Index>] = []
        var start = value.startIndex
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == "," || value[index] == ";" {
                pieces.append(start..<index)
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        pieces.append(start..<value.endIndex)
        var items: [Item] = []
        for (number, piece) in pieces.enumerated() {
            let text = value[piece].trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            let removal: Range<String.Index>
            if number + 1 < pieces.count {
                // This item and the separator after it, up to where the next item's text starts.
                var end = pieces[number + 1].lowerBound
                while end < value.endIndex, value[end] == " " { end = value.index(after: end) }
                let first = piece.lowerBound == value.startIndex ? piece.lowerBound : skipBlanks(value, from: piece.lowerBound)
                removal = first..<end
            } else if number > 0 {
                // The last item: it and the separator before it.
                let separator = value.index(before: piece.lowerBound)
                var first = separator
                while first > value.startIndex, value[value.index(before: first)] == " " { first = value.index(before: first) }
                removal = first..<piece.upperBound
            } else {
                removal = piece
            }
            items.append(Item(text: text, removal: removal))
        }
        return items
    }

    private static func skipBlanks(_ value: String, from index: String.Index) -> String.Index {
        var index = index
        while index < value.endIndex, value[index] == " " { index = value.index(after: index) }
        return index
    }
}
