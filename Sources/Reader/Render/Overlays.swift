import BibModel
import Foundation

/// Draws a framed box and returns the rectangle inside the frame.
enum Box {
    static func draw(title: String, width: Int, height: Int, footer: String = "", into screen: inout ScreenBuffer) -> Rect {
        let boxWidth = min(screen.width, width)
        let boxHeight = min(screen.height - 2, height)
        let x = (screen.width - boxWidth) / 2
        let y = (screen.height - boxHeight) / 2
        let style = Style(.overlay)
        screen.fill(x: x, y: y, width: boxWidth, height: boxHeight, style: style)
        let horizontal = String(repeating: "─", count: max(0, boxWidth - 2))
        screen.write("┌" + horizontal + "┐", x: x, y: y, style: Style(.overlay))
        screen.write("└" + horizontal + "┘", x: x, y: y + boxHeight - 1, style: Style(.overlay))
        for row in (y + 1)..<max(y + 1, y + boxHeight - 1) {
            screen.write("│", x: x, y: row, style: style)
            screen.write("│", x: x + boxWidth - 1, y: row, style: style)
        }
        screen.write(" \(DisplayWidth.truncate(title, to: max(0, boxWidth - 6))) ", x: x + 2, y: y, style: Style(.overlay, bold: true))
        if !footer.isEmpty && DisplayWidth.of(footer) + 6 < boxWidth {
            screen.write(" \(footer) ", x: x + boxWidth - DisplayWidth.of(footer) - 4, y: y + boxHeight - 1, style: Style(.overlay))
        }
        return Rect(x: x + 2, y: y + 1, width: boxWidth - 4, height: boxHeight - 2)
    }
}

/// The help screen, generated from the action table and the live key map.
enum HelpOverlay {
    /// The columns of the keys before each description.
    static let keyColumn = 18
    /// The widest box: wide enough for every description on one line; narrower screens get
    /// a box as wide as they are, with the descriptions wrapped.
    static let widestBox = 100

    /// The help's lines for a box `width` columns wide inside: descriptions wrap under
    /// themselves, and keys too many for their column get a line of their own.
    static func lines(_ state: AppState, width: Int) -> [(String, Style)] {
        var lines: [(String, Style)] = []
        let plain = Style(.overlay)
        let descriptionIndent = 2 + keyColumn + 1
        func row(keys: String, help: String) {
            let room = max(10, width - descriptionIndent)
            var wrapped = DisplayWidth.wrap(help, to: room)
            var first = "  " + DisplayWidth.pad(keys, to: keyColumn) + " "
            if DisplayWidth.of(keys) > keyColumn {
                lines.append(("  " + keys, plain))
                first = String(repeating: " ", count: descriptionIndent)
            }
            lines.append((first + wrapped.removeFirst(), plain))
            for more in wrapped { lines.append((String(repeating: " ", count: descriptionIndent) + more, plain)) }
        }
        func text(_ paragraph: String, indent: Int) {
            for line in DisplayWidth.wrap(paragraph, to: max(10, width - indent)) {
                lines.append((String(repeating: " ", count: indent) + line, plain))
            }
        }
        for scope in ActionScope.allCases {
            if !lines.isEmpty { lines.append(("", plain)) }
            lines.append((scope.rawValue, Style(.overlay, bold: true)))
            for definition in ActionTable.definitions where definition.scope == scope {
                let keys = state.keymap.keys(for: definition.action).map(\.description).joined(separator: " ")
                row(keys: keys.isEmpty ? "(unbound)" : keys, help: definition.help)
            }
        }
        lines.append(("", plain))
        lines.append(("Search bar", Style(.overlay, bold: true)))
        for (keys, help) in [("Enter", "Keep the filter and return to the list"), ("Esc", "Clear the search"),
                             ("C-u  C-w", "Clear the line / delete a word"), ("Up Down", "Move in the list while typing")] {
            row(keys: keys, help: help)
        }
        lines.append(("", plain))
        lines.append(("Marks", Style(.overlay, bold: true)))
        text("● has a PDF here   ○ its PDF is on the remote only   ✓ read   ★ bookmarked", indent: 2)
        lines.append(("", plain))
        lines.append(("Search", Style(.overlay, bold: true)))
        for paragraph in ["Words match by prefix, ignoring case and accents; terms are ANDed.",
                          "field:word (author, title, year, keywords, journal, type, key…);",
                          "-word excludes; \"a phrase\"; year:1984..1990; OR between terms."] {
            text(paragraph, indent: 2)
        }
        lines.append(("", plain))
        text("Keys can be changed in ~/.config/bibread/config.toml under [keys].", indent: 0)
        return lines
    }

    static func draw(_ state: AppState, into screen: inout ScreenBuffer) {
        let width = min(screen.width, widestBox)
        let content = lines(state, width: max(1, width - 4))
        // (Update's handleHelp works out the same lines to stop scrolling at the last one.)
        let rows = max(1, screen.height - 4)
        let fits = content.count <= rows
        let top = min(state.helpScroll, max(0, content.count - rows))
        let footer = fits ? "" : (top + rows < content.count ? "↓ j/k scroll" : "↑ j/k scroll")
        let inner = Box.draw(title: "Help — any other key closes", width: width, height: content.count + 2, footer: footer, into: &screen)
        for row in 0..<inner.height {
            guard top + row < content.count else { break }
            let (text, style) = content[top + row]
            screen.write(text, x: inner.x, y: inner.y + row, style: style, limit: inner.width)
        }
    }
}

/// Which of several PDFs to open.
enum ChooserOverlay {
    static func draw(_ chooser: FileChooser, state: AppState, into screen: inout ScreenBuffer) {
        let inner = Box.draw(title: "\(chooser.key) has \(chooser.files.count) PDFs — Enter opens, Esc cancels",
                             width: 90, height: chooser.files.count + 2, into: &screen)
        for (index, file) in chooser.files.enumerated() where index < inner.height {
            let name = file.label.map { "\($0): " } ?? ""
            let text = "\(index + 1). \(name)\(file.path)"
            let style = index == chooser.selected ? Style(.selection) : Style(.overlay)
            screen.fill(x: inner.x, y: inner.y + index, width: inner.width, height: 1, style: style)
            screen.write(DisplayWidth.truncate(text, to: inner.width), x: inner.x, y: inner.y + index, style: style)
        }
    }
}

/// Page text made readable in a terminal: paragraphs rewrapped to the window, words hyphenated
/// at line ends joined, ligatures expanded.
public enum ReadingText {
    static let ligatures: [Character: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl", "\u{FB05}": "st", "\u{FB06}": "st",
    ]

    /// The page's text as lines at most `width` columns wide.
    public static func lines(of text: String, width: Int) -> [String] {
        var output: [String] = []
        for paragraph in paragraphs(of: text) {
            if !output.isEmpty { output.append("") }
            output += DisplayWidth.wrap(paragraph, to: width)
        }
        return output
    }

    /// The lines the reading view shows for a page's text: reflowed to `width` columns, or the
    /// page's layout lines (form feeds dropped, blank lines at the end trimmed). The view and
    /// the search in other pages both use it, so that a page found is a page with a match shown.
    public static func shownLines(of text: String, mode: ReadingMode, width: Int) -> [String] {
        switch mode {
        case .reflow:
            return lines(of: text, width: width)
        case .layout:
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.replacingOccurrences(of: "\u{0C}", with: "")) }
            while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
            return lines
        }
    }

    /// One occurrence of a search in a page's lines: the line it starts on, the characters it
    /// covers there, and how many characters it runs on into the next line (a phrase cut by
    /// the line's end).
    public struct Occurrence: Sendable, Equatable {
        public let line: Int
        public let characters: Range<Int>
        public let continuation: Int
    }

    /// Every occurrence of `query` in `lines`, in reading order, ignoring case and accents; a
    /// phrase that a line break cuts (read as a space) counts once, on the line it starts on.
    public static func occurrences(of query: String, in lines: [String]) -> [Occurrence] {
        guard !query.isEmpty else { return [] }
        var found: [Occurrence] = []
        for (index, line) in lines.enumerated() {
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            let joined = next.isEmpty ? line : line + " " + next
            let length = line.count
            for range in matches(of: query, in: joined) {
                let start = joined.distance(from: joined.startIndex, to: range.lowerBound)
                guard start < length else { break }
                let end = joined.distance(from: joined.startIndex, to: range.upperBound)
                found.append(Occurrence(line: index, characters: start..<min(end, length), continuation: max(0, end - length - 1)))
            }
        }
        return found
    }

    /// Where `query` occurs in `line`, ignoring case and accents.
    public static func matches(of query: String, in line: String) -> [Range<String.Index>] {
        guard !query.isEmpty else { return [] }
        var ranges: [Range<String.Index>] = []
        var searchRange = line.startIndex..<line.endIndex
        while let found = line.range(of: query, options: [.caseInsensitive, .diacriticInsensitive], range: searchRange) {
            ranges.append(found)
            guard found.upperBound < line.endIndex else { break }
            searchRange = found.upperBound..<line.endIndex
        }
        return ranges
    }

    /// Paragraphs: blank lines separate them, and so does a line much shorter than the page's
    /// usual line (the last line of a paragraph, a heading); a line that ends with a hyphen
    /// after a letter joins the next line without a space.
    public static func paragraphs(of text: String) -> [String] {
        var lines: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for character in rawLine {
                if let expanded = ligatures[character] {
                    line += expanded
                } else if character == "\t" || character == "\r" || character == "\u{0C}" {
                    line += " "
                } else {
                    line.append(character)
                }
            }
            lines.append(line.trimmingCharacters(in: .whitespaces))
        }
        // The usual length of a full line: the 75th percentile of the page's line lengths.
        let lengths = lines.map(\.count).filter { $0 > 0 }.sorted()
        let usual = lengths.isEmpty ? 0 : lengths[min(lengths.count - 1, lengths.count * 3 / 4)]
        var paragraphs: [String] = []
        var current = ""
        for line in lines {
            if line.isEmpty {
                if !current.isEmpty { paragraphs.append(current) }
                current = ""
                continue
            }
            if current.isEmpty {
                current = line
            } else if current.hasSuffix("-"), current.dropLast().last?.isLetter == true, line.first?.isLowercase == true {
                current.removeLast()
                current += line
            } else {
                current += " " + line
            }
            if Double(line.count) < Double(usual) * 0.7 {
                paragraphs.append(current)
                current = ""
            }
        }
        if !current.isEmpty { paragraphs.append(current) }
        return paragraphs
    }
}
