import BibModel
import BibreadValues
import Foundation

/// Page text made readable in a terminal: a page's reflow text (`PDFDocument.reflowText`: a
/// paragraph on one line, lines that are lines in the PDF such as code on lines of their own, a
/// blank line between blocks) wrapped to the window, with ligatures expanded.
public enum ReadingText {
    static let ligatures: [Character: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl", "\u{FB05}": "st", "\u{FB06}": "st",
    ]

    /// The page's text as lines at most `width` columns wide: each line of the text wrapped (an
    /// indented line, such as code, keeps its indentation and its inner spaces when it fits),
    /// one blank line between blocks.
    public static func lines(of text: String, width: Int) -> [String] {
        var output: [String] = []
        for paragraph in paragraphs(of: text) {
            if !output.isEmpty { output.append("") }
            for line in paragraph.split(separator: "\n") {
                output += wrap(String(line), to: width)
            }
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

    /// One line of the text wrapped to `width`, continuation lines indented as the first; a
    /// line of a table of contents gets a shorter dot leader to fit.
    private static func wrap(_ line: String, to width: Int) -> [String] {
        if DisplayWidth.of(line) <= width { return [line] }
        if let fitted = shorteningLeader(of: line, to: width) { return [fitted] }
        let indent = line.prefix { $0 == " " }.count
        let margin = indent < width / 2 ? indent : 0
        let pad = String(repeating: " ", count: margin)
        return DisplayWidth.wrap(String(line.dropFirst(indent)), to: width - margin).map { pad + $0 }
    }

    /// `line` with its dot leader (at least three dots before the last word, as in "Preface
    /// . . . . 1") shortened so that the line is `width` columns wide, or nil when it has no
    /// leader or does not fit with three dots.
    static func shorteningLeader(of line: String, to width: Int) -> String? {
        guard let lastSpace = line.lastIndex(of: " ") else { return nil }
        let number = line[line.index(after: lastSpace)...]
        var start = lastSpace
        while start > line.startIndex, ". ".contains(line[line.index(before: start)]) { start = line.index(before: start) }
        // A full stop right after the text ("etc.") is not the leader's.
        if start > line.startIndex, line[start] == ".", line[line.index(before: start)] != " " { start = line.index(after: start) }
        let leader = line[start..<lastSpace]
        guard leader.filter({ $0 == "." }).count >= 3 else { return nil }
        let text = line[..<start]
        let spaced = leader.contains(". .")
        let room = width - DisplayWidth.of(text) - DisplayWidth.of(number) - 2
        let dots = spaced ? (room + 1) / 2 : room
        guard dots >= 3 else { return nil }
        let newLeader = spaced ? Array(repeating: ".", count: dots).joined(separator: " ") : String(repeating: ".", count: dots)
        return text + (text.hasSuffix(" ") || text.isEmpty ? "" : " ") + newLeader + " " + number
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

    /// The blocks of the text: blank lines separate them; inside one, its lines (a paragraph,
    /// or lines that stay lines) are joined by line feeds. Ligatures are expanded, control
    /// characters (`TerminalText.isControl`: tabs, form feeds, escapes) become spaces, trailing
    /// spaces go. (A PDF's text layer holds stray ones from its fonts' encodings, a backspace on
    /// a line of its own: a space reads better there than the `�` shown for one in a .bib file.)
    public static func paragraphs(of text: String) -> [String] {
        var paragraphs: [String] = []
        var current: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = cleanedLine(rawLine)
            while line.last == " " { line.removeLast() }
            if line.allSatisfy({ $0 == " " }) {
                if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
        return paragraphs
    }

    /// A line of a page's text with its ligatures expanded and its control characters as spaces.
    static func cleanedLine(_ rawLine: Substring) -> String {
        asciiCleanedLine(rawLine) ?? cleanedLineByCharacters(rawLine)
    }

    /// `cleanedLine` of an ASCII line without a carriage return, byte by byte (a dictionary
    /// look-up for each character was most of the reflow of a page); nil for any other line.
    /// There each character is one byte (CR LF, the one ASCII pair that is one character, needs
    /// a CR), no ligature is ASCII, and the controls are the bytes below 0x20 and 0x7F.
    static func asciiCleanedLine(_ rawLine: Substring) -> String? {
        let bytes = rawLine.utf8
        guard !bytes.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) else { return nil }
        return String(decoding: bytes.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// `cleanedLine` character by character, for any line (the straightforward path, which
    /// tests compare `asciiCleanedLine` with).
    static func cleanedLineByCharacters(_ rawLine: Substring) -> String {
        var line = ""
        for character in rawLine {
            if let expanded = ligatures[character] {
                line += expanded
            } else if character.unicodeScalars.contains(where: TerminalText.isControl) {
                // Tabs, form feeds and any other control character a PDF's text holds:
                // nothing that reaches the terminal may move its cursor or change its state.
                line += " "
            } else {
                line.append(character)
            }
        }
        return line
    }
}
