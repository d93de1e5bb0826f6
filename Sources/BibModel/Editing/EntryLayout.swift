import Foundation

/// Where the parts of one entry are in its file's UTF-8 text: each field's name, value and comma,
/// and the entry's closing delimiter. The editor splices new text at these places and nowhere
/// else, so that everything around them keeps its bytes.
///
/// The scan follows the parser's rules (white space and `%` comments between parts, `{…}` and
/// `"…"` values with balanced braces, numbers, macro names, `#` concatenation); an entry it cannot
/// read the same way (an unclosed value, a missing comma) gives nil, and is not edited.
struct EntryLayout {
    /// One `name = value` of the entry, as byte offsets into the UTF-8 text.
    struct Slot {
        let nameStart: Int
        let nameEnd: Int
        /// The offset of the `=`.
        let equals: Int
        /// The first byte of the value (its opening delimiter, or a number or macro name).
        let valueStart: Int
        /// Just past the value's last part (past its closing delimiter).
        let valueEnd: Int
        /// Just past the comma that follows the value, if one does.
        let commaEnd: Int?
        /// The byte that opens the value: `{`, `"`, or another for a number or a macro.
        let opening: UInt8
        /// True when the value is one part (no `#`).
        let isSinglePart: Bool
        /// The start of the line the name is on, when only blanks come before it there.
        let lineStart: Int?
    }

    let entryStart: Int
    /// Just past the cite key's comma (where the first field may be inserted), or past the key.
    let keyEnd: Int
    let slots: [Slot]
    /// The offset of the entry's closing `}` or `)`.
    let close: Int

    /// The bytes just past the entry's closing delimiter.
    var end: Int { close + 1 }

    /// Reads the entry that starts with the `@` at `start`; nil when it does not read cleanly.
    static func scan(_ text: [UInt8], at start: Int) -> EntryLayout? {
        var scanner = Scanner(text: text, position: start)
        return scanner.entry()
    }

    /// The line ending the entry uses (`\r\n` when its first line break is one), else `\n`.
    func lineEnding(in text: [UInt8]) -> [UInt8] {
        var index = entryStart
        while index < close {
            if text[index] == 0x0A { return index > 0 && text[index - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A] }
            index += 1
        }
        return [0x0A]
    }
}

private struct Scanner {
    let text: [UInt8]
    var position: Int

    mutating func entry() -> EntryLayout? {
        let start = position
        guard at("@") else { return nil }
        position += 1
        while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
        let typeStart = position
        while position < text.count, isIdentifierByte(text[position]) { position += 1 }
        guard position > typeStart else { return nil }
        while position < text.count, isWhitespace(text[position]) { position += 1 }
        guard position < text.count, at("{") || at("(") else { return nil }
        let close: UInt8 = at("{") ? UInt8(ascii: "}") : UInt8(ascii: ")")
        position += 1
        skipWhitespace()
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: ",") || byte == close || isWhitespace(byte) { break }
            if close == UInt8(ascii: "}") && byte == UInt8(ascii: "{") { return nil }
            position += 1
        }
        skipWhitespace()
        var keyEnd = position
        if position < text.count, at(",") {
            position += 1
            keyEnd = position
        }
        var slots: [EntryLayout.Slot] = []
        while true {
            skipWhitespace()
            guard position < text.count else { return nil }
            let byte = text[position]
            if byte == close {
                return EntryLayout(entryStart: start, keyEnd: keyEnd, slots: slots, close: position)
            }
            if byte == UInt8(ascii: ",") {
                // A stray comma (`,,`): the parser skips it; so does the layout, as part of a gap.
                position += 1
                continue
            }
            guard let slot = field(close: close) else { return nil }
            slots.append(slot)
        }
    }

    private mutating func field(close: UInt8) -> EntryLayout.Slot? {
        let nameStart = position
        while position < text.count, isIdentifierByte(text[position]) { position += 1 }
        let nameEnd = position
        guard nameEnd > nameStart else { return nil }
        skipWhitespace()
        guard position < text.count, at("=") else { return nil }
        let equals = position
        position += 1
        skipWhitespace()
        guard position < text.count else { return nil }
        let valueStart = position
        let opening = text[position]
        var parts = 0
        var valueEnd = position
        while true {
            guard part() else { return nil }
            parts += 1
            valueEnd = position
            skipWhitespace()
            guard position < text.count, at("#") else { break }
            position += 1
            skipWhitespace()
        }
        guard position < text.count else { return nil }
        var commaEnd: Int?
        if at(",") {
            commaEnd = position + 1
            position += 1
        } else if text[position] != close {
            return nil
        }
        return EntryLayout.Slot(nameStart: nameStart, nameEnd: nameEnd, equals: equals, valueStart: valueStart, valueEnd: valueEnd,
                                commaEnd: commaEnd, opening: opening, isSinglePart: parts == 1,
                                lineStart: lineStart(of: nameStart))
    }

    /// One `{…}`, `"…"`, number or macro name.
    private mutating func part() -> Bool {
        guard position < text.count else { return false }
        let byte = text[position]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "\"") {
            let quoted = byte == UInt8(ascii: "\"")
            var depth = 0
            position += 1
            while position < text.count {
                switch text[position] {
                case UInt8(ascii: "{"):
                    depth += 1
                case UInt8(ascii: "}"):
                    if depth == 0 {
                        if quoted { return false }
                        position += 1
                        return true
                    }
                    depth -= 1
                case UInt8(ascii: "\""):
                    if quoted && depth == 0 {
                        position += 1
                        return true
                    }
                case 0x0A:
                    if EntryLayout.looksLikeEntryStart(text, after: position) { return false }
                default:
                    break
                }
                position += 1
            }
            return false
        }
        guard isIdentifierByte(byte) else { return false }
        while position < text.count, isIdentifierByte(text[position]) { position += 1 }
        return true
    }

    private func at(_ character: Unicode.Scalar) -> Bool { text[position] == UInt8(ascii: character) }

    private func lineStart(of offset: Int) -> Int? {
        var index = offset
        while index > 0 {
            let byte = text[index - 1]
            if byte == 0x0A { return index }
            guard byte == 0x20 || byte == 0x09 else { return nil }
            index -= 1
        }
        return 0
    }

    /// White space and `%` comments to the end of their line, as the parser skips them.
    private mutating func skipWhitespace() {
        let start = position
        position = text.withUnsafeBufferPointer { BibParser.skippingWhitespace($0, from: start) }
    }
}

extension EntryLayout {
    /// True when the line after the newline at `newline` starts with `@name{` or `@name(` (the
    /// parser takes such a line inside a value for the start of the next entry).
    static func looksLikeEntryStart(_ text: [UInt8], after newline: Int) -> Bool {
        text.withUnsafeBufferPointer { BibParser.looksLikeEntryStart($0, after: newline) }
    }
}
