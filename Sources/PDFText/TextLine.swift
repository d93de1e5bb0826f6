/// One printed line of a page: poppler's lines (the characters between two line feeds) on one
/// baseline, one after the other, with what their character boxes and fonts say about it.
struct TextLine {
    /// A word: scalars `first...last` and the box around them.
    struct Word {
        var first: Int
        var last: Int
        var box: GlyphBox
        var text: String
    }

    var words: [Word]
    /// The box around every word.
    var box: GlyphBox
    /// The usual character height (the median of the words' heights).
    var height: Double
    /// The share of the line's characters in a monospace font, and in a bold one.
    var monospaceShare = 0.0
    var boldShare = 0.0
    /// The font size most of the line's characters have (0 when poppler gave no fonts).
    var fontSize = 0.0
    /// The mean width of the line's characters in a monospace font (the font's advance), else
    /// of all its characters.
    var pitch: Double

    /// The words with one space between each.
    var text: String { words.map(\.text).joined(separator: " ") }

    /// Code, or another text set in a typewriter font: its lines are lines.
    var isMonospace: Bool { monospaceShare >= 0.9 }

    /// A heading: not code, and all bold or in a font 15% larger than the page's body text.
    func isHeading(bodyFontSize: Double) -> Bool {
        guard !isMonospace else { return false }
        if boldShare >= 0.9 { return true }
        return bodyFontSize > 0 && fontSize >= bodyFontSize * 1.15
    }

    /// A line of a table of contents: text, a leader of dots, a page number or label.
    var endsInLeader: Bool {
        guard let last = words.last, words.count >= 2, last.text.count <= 12,
              last.text.contains(where: { $0.isNumber || $0.isLetter }) else { return false }
        let text = self.text
        let beforeNumber = text.dropLast(last.text.count).filter { $0 != " " }
        return beforeNumber.hasSuffix("...")
    }

    /// The widest gap between two words of the line, in points, after a list item's marker.
    var widestGap: Double {
        let text = listItemTextStart == nil ? words[...] : words.dropFirst()
        return zip(text, text.dropFirst()).map { $1.box.x1 - $0.box.x2 }.max() ?? 0
    }

    /// Where the text of a list item starts: the second word's x when the first word is a bullet
    /// or an enumerator ("•", "–", "1.", "(a)", "iv)", "[12]"), else nil.
    var listItemTextStart: Double? {
        guard words.count >= 2, let marker = words.first?.text else { return nil }
        return Self.isListMarker(marker) ? words[1].box.x1 : nil
    }

    /// Whether `word` marks a list item: a bullet or a dash, a number ("1.", "2)", "(3)", "[4]"),
    /// a lower-case letter or roman numeral ("a.", "(b)", "iv)"), or any letter in parentheses
    /// ("(A)", "B)"). "J." is no marker: a line may start with an author's initial.
    static func isListMarker(_ word: String) -> Bool {
        if ["•", "◦", "‣", "▪", "▸", "►", "–", "—", "-", "*", "·", "∙", "○", "■", "□", "✓", "→"].contains(word) { return true }
        var core = Substring(word)
        let withFullStop = core.hasSuffix(".")
        if (core.hasPrefix("(") && core.hasSuffix(")")) || (core.hasPrefix("[") && core.hasSuffix("]")) {
            core = core.dropFirst().dropLast()
        } else if core.hasSuffix(")") || withFullStop {
            core = core.dropLast()
        } else {
            return false
        }
        guard !core.isEmpty, core.count <= 4 else { return false }
        if core.allSatisfy(\.isNumber) { return true }
        if core.count == 1, let letter = core.first, letter.isLetter, letter.isLowercase || !withFullStop { return true }
        return core.allSatisfy { "ivxlc".contains($0) }
    }
}
