import BibModel

/// How many terminal columns text takes: wide (CJK, emoji) characters take two, combining marks
/// none. Works on grapheme clusters, so `é` written as `e` + U+0301 is one column.
public enum DisplayWidth {
    /// The columns one grapheme cluster takes. A control character takes one: it is shown as a
    /// space or `�` (`TerminalText`).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if TerminalText.isControl(first) { return 1 }
        if first.value < 0x300 { return 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        return width(of: first)
    }

    /// The columns a string takes.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The columns one scalar takes on its own.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide and Fullwidth ranges, and emoji with default emoji presentation.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
             0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F320,
             0x1F32D...0x1F335, 0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA,
             0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440,
             0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A,
             0x1F595...0x1F596, 0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC,
             0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
             0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Cuts text to at most `width` columns, ending with `…` when something was cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        truncate(text, to: width, measure: of)
    }

    /// `truncate` with each character's columns from `measure`, which it calls for the
    /// characters that fit and one more, however long the text.
    static func truncate(_ text: String, to width: Int, measure: (Character) -> Int) -> String {
        guard width > 0 else { return "" }
        // The characters that fit with room left for the `…`.
        var kept = ""
        var used = 0
        for character in text {
            used += measure(character)
            if used > width { return kept + "…" }
            if used < width { kept.append(character) }
        }
        return text
    }

    /// Pads text with spaces to exactly `width` columns (truncating first when longer).
    public static func pad(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }

    /// Splits text into lines of at most `width` columns, breaking at spaces where possible; a
    /// word longer than a line is cut into pieces of `width` columns (a character wider than
    /// the line gets a line of its own).
    public static func wrap(_ text: String, to width: Int) -> [String] {
        wrap(text, to: width, measure: of)
    }

    /// `wrap` with each character's columns from `measure`, which it calls once per character
    /// that is not a space: the work grows with the text, not with the text times its lines.
    static func wrap(_ text: String, to width: Int, measure: (Character) -> Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var word = ""
        var wordWidth = 0
        // Whether the word read is longer than a line: its first pieces are lines already.
        var cutting = false
        func endWord() {
            guard !word.isEmpty else { return }
            if !cutting && lineWidth > 0 && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
            } else {
                // A word that does not fit the line, or the last piece of a long word, starts a line.
                if !cutting && lineWidth > 0 { lines.append(line) }
                line = word
                lineWidth = wordWidth
            }
            word = ""
            wordWidth = 0
            cutting = false
        }
        for character in text {
            if character == " " {
                endWord()
                continue
            }
            let columns = measure(character)
            if wordWidth + columns > width && !word.isEmpty {
                // Longer than a line: the line before it ends, and the word is cut here.
                if !cutting && lineWidth > 0 {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                cutting = true
                lines.append(word)
                word = ""
                wordWidth = 0
            }
            word.append(character)
            wordWidth += columns
        }
        endWord()
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
