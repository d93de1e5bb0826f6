/// Why a link or citation could not be read: what is wrong and where (1-based column in the text as given).
///
/// The column counts characters (grapheme clusters) of the text exactly as it was passed to
/// `ReferenceLink.parse(_:)` or `parseTarget(_:)`, white space around it included, before any
/// percent-decoding. It may be one past the last character when something is missing at the end.
public struct ReferenceLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public let message: String
    /// The 1-based character position of the offending part.
    public let column: Int

    /// An error saying `message` about the text at `column`.
    public init(message: String, column: Int) {
        self.message = message
        self.column = column
    }

    /// `column N: message`.
    public var description: String { "column \(column): \(message)" }

    /// The text with a caret under the column, for terminals: two lines.
    ///
    /// Control characters and line breaks show as spaces so that the caret stays aligned; wide
    /// (CJK, emoji) characters count two columns. A text longer than `window` characters is cut
    /// to a window around the column, with `…` where something was left out.
    public func pointing(at text: String, window: Int = 72) -> String {
        let characters = Array(text)
        let index = min(max(column - 1, 0), characters.count)
        var start = 0
        var end = characters.count
        if characters.count > window, window > 0 {
            start = max(0, min(index - window / 2, characters.count - window))
            end = min(characters.count, start + window)
        }
        var line = start > 0 ? "…" : ""
        var caretOffset = start > 0 ? 1 : 0
        for position in start..<end {
            let shown = Self.displayed(characters[position])
            line.append(shown)
            if position < index { caretOffset += Self.terminalWidth(of: shown) }
        }
        if end < characters.count { line += "…" }
        return line + "\n" + String(repeating: " ", count: caretOffset) + "^"
    }

    /// The character as drawn on the caret line's partner: controls and white space as a space.
    private static func displayed(_ character: Character) -> Character {
        let isInvisible = character.unicodeScalars.contains {
            $0.properties.generalCategory == .control || ($0.properties.isWhitespace && $0 != " ")
        }
        return isInvisible ? " " : character
    }

    /// Terminal columns a character takes: 0 for a lone combining mark, 2 for East Asian wide
    /// characters and common emoji, otherwise 1 (an approximation that needs no tables).
    private static func terminalWidth(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF,
             0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
