/// Text made safe for a terminal. Every text that came from a file or a server passes through
/// here before it is printed or drawn, so that nothing in it can clear the screen, move the
/// cursor, set the window title, write the clipboard (OSC 52) or change the colours.
///
/// A control character is C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F: a terminal
/// may read U+009B as CSI and U+009D as OSC). Where text has lines, tab and line feed stay, and
/// CR LF becomes a line feed; within one line (a table cell, a status line) they become a space.
/// Carriage return, vertical tab and form feed become a space. Every other control character —
/// ESC, BEL, NUL, backspace, DEL, the C1 controls — becomes `�` (U+FFFD), so that what was
/// removed stays visible, one column wide. JSON output escapes control characters instead
/// (`\u001b`), losing nothing.
public enum TerminalText {
    /// What a removed control character is shown as: `�`, U+FFFD REPLACEMENT CHARACTER.
    public static let mark: Unicode.Scalar = "\u{FFFD}"

    /// True for a control character: C0, DEL or C1.
    @inlinable
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// What a control character is shown as: itself for tab and line feed when `keepingLines`,
    /// a space for the other white-space controls (and for tab and line feed within a line),
    /// else `mark`. Nil when `scalar` is no control character.
    public static func replacement(for scalar: Unicode.Scalar, keepingLines: Bool) -> Unicode.Scalar? {
        guard isControl(scalar) else { return nil }
        switch scalar {
        case "\t", "\n": return keepingLines ? scalar : " "
        case "\r", "\u{0B}", "\u{0C}": return " "
        default: return mark
        }
    }

    /// `text` with its control characters replaced, keeping its tabs and lines (see the type's
    /// documentation); the text itself when it has none to replace.
    public static func cleaned(_ text: String) -> String {
        cleaned(text, keepingLines: true)
    }

    /// `text` as one line: tabs and line ends become spaces, other control characters `�`.
    public static func cleanedLine(_ text: String) -> String {
        cleaned(text, keepingLines: false)
    }

    private static func cleaned(_ text: String, keepingLines: Bool) -> String {
        var text = text
        guard let bytes = text.withUTF8({ cleanedUTF8($0, keepingLines: keepingLines) }) else { return text }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// UTF-8 bytes with their control characters replaced as `cleaned(_:)` does (or as
    /// `cleanedLine(_:)` does, unless `keepingLines`); nil when there is nothing to replace,
    /// which is found without a copy. A C1 control is the two bytes `C2 80` to `C2 9F`; bytes
    /// that are not UTF-8 are left as they are.
    public static func cleanedUTF8(_ bytes: UnsafeBufferPointer<UInt8>, keepingLines: Bool = true) -> [UInt8]? {
        guard let first = firstToReplace(in: bytes, keepingLines: keepingLines) else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        output.append(contentsOf: bytes[..<first])
        var index = first
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                // CR LF is one line end.
                output.append(keepingLines ? 0x0A : 0x20)
                index += 2
            } else if byte < 0x20 || byte == 0x7F {
                append(replacement(for: Unicode.Scalar(byte), keepingLines: keepingLines) ?? mark, to: &output)
                index += 1
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                append(mark, to: &output)
                index += 2
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// Where the first byte to replace is. Eight bytes are checked at a time; only a word that
    /// may hold one is looked at byte by byte (tabs and line feeds are common).
    private static func firstToReplace(in bytes: UnsafeBufferPointer<UInt8>, keepingLines: Bool) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = 0
        while index + 8 <= bytes.count {
            if mayNeedReplacing(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)),
               let found = firstToReplace(in: bytes, from: index, to: index + 8, keepingLines: keepingLines) {
                return found
            }
            index += 8
        }
        return firstToReplace(in: bytes, from: index, to: bytes.count, keepingLines: keepingLines)
    }

    /// The first byte to replace from `start` up to `end`, looking one byte past `end` for the
    /// second byte of a C1 control.
    private static func firstToReplace(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                       keepingLines: Bool) -> Int? {
        for index in start..<end {
            let byte = bytes[index]
            if byte < 0x20 {
                if !keepingLines || (byte != 0x09 && byte != 0x0A) { return index }
            } else if byte == 0x7F {
                return index
            } else if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
                return index
            }
        }
        return nil
    }

    /// True when one of eight bytes is below 0x20, DEL or 0xC2 (the first byte of a C1
    /// control). Exact for any bytes: a borrow can set the high bit of a byte only above a byte
    /// that matched.
    @inline(__always)
    private static func mayNeedReplacing(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let control = (word &- ones &* 0x20) & ~word & highs != 0
        return control || hasZeroByte(word ^ (ones &* 0x7F)) || hasZeroByte(word ^ (ones &* 0xC2))
    }

    private static func append(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        output.append(contentsOf: String(Character(scalar)).utf8)
    }
}
