import Foundation

extension EntryDraft {
    /// The splices that write the changes: a changed value in place of the old one (its
    /// delimiters kept), a removed field with its line, a new field beside its neighbours.
    func splices(encoding: TextEncoding) throws(EditError) -> [Splice] {
        let slots = layout.slots
        let lowerNames = slots.map { String(decoding: text[$0.nameStart..<$0.nameEnd], as: UTF8.self).lowercased() }
        var removed = Set<Int>()
        var splices: [Splice] = []
        var additions: [(name: String, value: String)] = []
        for change in changes {
            let lower = change.name.lowercased()
            let indices = lowerNames.indices.filter { lowerNames[$0] == lower }
            if let value = change.newValue {
                if let first = indices.first {
                    let slot = slots[first]
                    splices.append(Splice(range: slot.valueStart..<slot.valueEnd, text: delimited(value, like: slot)))
                } else {
                    additions.append((change.name, value))
                }
            } else {
                removed.formUnion(indices)
            }
        }
        let surviving = slots.indices.filter { !removed.contains($0) }
        for index in removed.sorted() { splices.append(removal(of: index, surviving: surviving)) }
        splices = merged(splices)
        let removals = splices.filter { $0.text.isEmpty }.map(\.range)
        for addition in additions {
            splices.append(insertion(of: addition.name, addition.value, surviving: surviving, names: lowerNames,
                                     removals: removals))
        }
        return splices
    }

    // MARK: - Values

    /// The value with the delimiters of `slot`: braces, quotes (braces when the value holds a
    /// `"` outside braces) or a bare number; a macro or a concatenation becomes braces.
    private func delimited(_ value: String, like slot: EntryLayout.Slot) -> String {
        delimited(value, opening: slot.isSinglePart ? slot.opening : preferredOpening)
    }

    private func delimited(_ value: String, opening: UInt8) -> String {
        switch opening {
        case UInt8(ascii: "\"") where !EntryDraft.hasTopLevelQuote(value):
            return "\"" + value + "\""
        case UInt8(ascii: "0")...UInt8(ascii: "9") where !value.isEmpty && value.utf8.allSatisfy(isDigit):
            return value
        case UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return "{" + value + "}"
        default:
            return delimited(value, opening: preferredOpening)
        }
    }

    /// `{` or `"`, whichever the entry's values use more (braces on a tie).
    private var preferredOpening: UInt8 {
        let quotes = layout.slots.filter { $0.opening == UInt8(ascii: "\"") }.count
        let braces = layout.slots.filter { $0.opening == UInt8(ascii: "{") }.count
        return quotes > braces ? UInt8(ascii: "\"") : UInt8(ascii: "{")
    }

    static func hasTopLevelQuote(_ value: String) -> Bool {
        var depth = 0
        for byte in value.utf8 {
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth -= 1 }
            if byte == UInt8(ascii: "\""), depth == 0 { return true }
        }
        return false
    }

    // MARK: - Removing

    /// The bytes that go with the field at `index`: its line (when it has one to itself) up to
    /// and with its comma; for the last field without a comma, from the end of the previous
    /// surviving field, so that the entry keeps its closing style (`Year = {1975}}`).
    private func removal(of index: Int, surviving: [Int]) -> Splice {
        let slot = layout.slots[index]
        guard let commaEnd = slot.commaEnd else {
            let previous = surviving.last { $0 < index }
            let start = previous.map { layout.slots[$0].valueEnd } ?? layout.keyEnd
            return Splice(range: start..<slot.valueEnd, text: "")
        }
        var end = commaEnd
        var cursor = commaEnd
        while cursor < text.count, text[cursor] == 0x20 || text[cursor] == 0x09 { cursor += 1 }
        if let lineStart = slot.lineStart {
            if cursor < text.count, text[cursor] == 0x0D, cursor + 1 < text.count, text[cursor + 1] == 0x0A {
                end = cursor + 2
            } else if cursor < text.count, text[cursor] == 0x0A {
                end = cursor + 1
            } else {
                // Something follows on the same line (`a = {1}, b = {2}`): keep the indent for it.
                return Splice(range: slot.nameStart..<cursor, text: "")
            }
            return Splice(range: lineStart..<end, text: "")
        }
        end = cursor
        return Splice(range: slot.nameStart..<end, text: "")
    }

    /// Removal splices joined where they touch or overlap.
    private func merged(_ splices: [Splice]) -> [Splice] {
        let removals = splices.filter { $0.text.isEmpty && !$0.range.isEmpty }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var joined: [Range<Int>] = []
        for removal in removals {
            if let last = joined.last, removal.range.lowerBound <= last.upperBound {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, removal.range.upperBound)
            } else {
                joined.append(removal.range)
            }
        }
        let others = splices.filter { !($0.text.isEmpty && !$0.range.isEmpty) }
        return others + joined.map { Splice(range: $0, text: "") }
    }

    // MARK: - Adding

    /// A new field: before the first field that sorts after it when the fields are in
    /// alphabetical order (as BibDesk writes them, its linked files last), else after the last.
    private func insertion(of name: String, _ value: String, surviving: [Int], names: [String],
                           removals: [Range<Int>]) -> Splice {
        let ending = String(decoding: layout.lineEnding(in: text), as: UTF8.self)
        let spelled = styled(name, names: surviving.map { names[$0] })
        let ordinary = surviving.filter { !names[$0].hasPrefix("bdsk-") }
        let isSorted = ordinary.count >= 3 && zip(ordinary, ordinary.dropFirst()).allSatisfy { names[$0] <= names[$1] }
        if isSorted, let before = surviving.first(where: { names[$0].hasPrefix("bdsk-") || names[$0] > spelled.lowercased() }) {
            let slot = layout.slots[before]
            let field = written(spelled, value, like: slot)
            if let lineStart = slot.lineStart {
                let indent = String(decoding: text[lineStart..<slot.nameStart], as: UTF8.self)
                return Splice(range: lineStart..<lineStart, text: indent + field + "," + ending)
            }
            return Splice(range: slot.nameStart..<slot.nameStart, text: field + ", ")
        }
        guard let last = surviving.last else {
            let indent = conventions.dialect == .bibDesk ? "\t" : "  "
            let field = written(spelled, value, like: nil)
            let hasComma = layout.keyEnd > 0 && text[layout.keyEnd - 1] == UInt8(ascii: ",")
            // Each new field ends with a comma, so that several can follow one another.
            return Splice(range: layout.keyEnd..<layout.keyEnd, text: (hasComma ? "" : ",") + ending + indent + field + ",")
        }
        let slot = layout.slots[last]
        let field = written(spelled, value, like: slot)
        let gap = slot.lineStart.map { ending + String(decoding: text[$0..<slot.nameStart], as: UTF8.self) } ?? " "
        // The comma after the last field goes with a removed field after it (`A = {x}}`).
        if let commaEnd = slot.commaEnd, !removals.contains(where: { $0.contains(commaEnd - 1) }) {
            return Splice(range: commaEnd..<commaEnd, text: gap + field + ",")
        }
        return Splice(range: slot.valueEnd..<slot.valueEnd, text: "," + gap + field)
    }

    /// `name = {value}` with the spacing around `=` of `slot` (or, when the entry lines up its
    /// `=` signs, padded to the same column) and the entry's delimiters.
    private func written(_ name: String, _ value: String, like slot: EntryLayout.Slot?) -> String {
        guard let slot else { return name + " = " + delimited(value, opening: preferredOpening) }
        var before = String(decoding: text[slot.nameEnd..<slot.equals], as: UTF8.self)
        var after = String(decoding: text[(slot.equals + 1)..<slot.valueStart], as: UTF8.self)
        if !before.allSatisfy({ $0 == " " || $0 == "\t" }) { before = " " }
        if !after.allSatisfy({ $0 == " " || $0 == "\t" }) { after = " " }
        if let column = alignedColumn, before.allSatisfy({ $0 == " " }) {
            before = String(repeating: " ", count: max(1, column - name.utf8.count))
        }
        let opening = slot.opening == UInt8(ascii: "\"") || slot.opening == UInt8(ascii: "{") ? slot.opening : preferredOpening
        return name + before + "=" + after + delimited(value, opening: opening)
    }

    /// The column of the `=` signs when the entry lines them up (names of different lengths
    /// padded to one column): the column most of its fields on lines of their own share. A field
    /// whose name is longer than the column (a `date-modified` added to fields aligned on
    /// `keywords`) leaves the others aligned, so it is not the only one counted.
    private var alignedColumn: Int? {
        let lined = layout.slots.filter { $0.lineStart != nil }
        guard lined.count >= 2 else { return nil }
        let byColumn = Dictionary(grouping: lined) { $0.equals - $0.nameStart }
        guard let (column, slots) = byColumn.max(by: { $0.value.count < $1.value.count }),
              slots.count >= 2, slots.count * 2 > lined.count,
              Set(slots.map { $0.nameEnd - $0.nameStart }).count > 1 else { return nil }
        return column
    }

    /// The name in the case its neighbours use: all lower case, or each part capitalized
    /// (`Date-Modified`) when every neighbour starts with a capital.
    private func styled(_ name: String, names: [String]) -> String {
        let spellings = layout.slots.map { String(decoding: text[$0.nameStart..<$0.nameEnd], as: UTF8.self) }
        guard !spellings.isEmpty else { return name }
        if spellings.allSatisfy({ $0 == $0.lowercased() }) { return name.lowercased() }
        if spellings.allSatisfy({ $0.first?.isUppercase == true }), name.first?.isLowercase == true {
            return name.split(separator: "-", omittingEmptySubsequences: false)
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
        }
        return name
    }
}
