/// A short passage of a page around a match, with the matched words marked for highlighting.
public struct Snippet: Sendable, Equatable {
    /// The passage on one line (line breaks and runs of spaces are single spaces), with `…` where
    /// it was cut from the page's text.
    public let text: String
    /// The matched words (or phrases) in `text`, in order.
    public let matches: [Range<String.Index>]

    /// Creates a snippet from its text and the ranges of its matches.
    public init(text: String, matches: [Range<String.Index>]) {
        self.text = text
        self.matches = matches
    }

    /// The matched parts of `text`, in order.
    public var matchedTexts: [Substring] { matches.map { text[$0] } }

    /// The marker `SnippetBuilder` puts before a match (a private-use character, which it
    /// removes from the page's text).
    static let openMarker: Unicode.Scalar = "\u{E000}"
    /// The marker `SnippetBuilder` puts after a match.
    static let closeMarker: Unicode.Scalar = "\u{E001}"

    /// A snippet from marked text, where each match is between `openMarker` and `closeMarker`:
    /// the markers become `matches`, whitespace runs become one space and dot
    /// leaders (`. . . . .`, of tables of contents) one `…`.
    init(marked: String) {
        var scalars = String.UnicodeScalarView()
        var ranges: [Range<Int>] = []
        var openedAt: Int?
        var length = 0 // in UTF-8 bytes
        var pendingSpace = false
        for scalar in Self.collapsingLeaders(marked) {
            switch scalar {
            case Self.openMarker:
                if pendingSpace, length > 0 {
                    scalars.append(" ")
                    length += 1
                }
                pendingSpace = false
                openedAt = length
            case Self.closeMarker:
                if let start = openedAt, start < length { ranges.append(start..<length) }
                openedAt = nil
            default:
                if scalar.properties.isWhitespace {
                    pendingSpace = true
                    continue
                }
                if pendingSpace, length > 0, openedAt != length {
                    scalars.append(" ")
                    length += 1
                }
                pendingSpace = false
                scalars.append(scalar)
                length += UTF8.width(scalar)
            }
        }
        let text = String(scalars)
        let utf8 = text.utf8
        matches = ranges.map { range in
            utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)
        }
        self.text = text
    }

    /// `text` with each run of four or more dots (spaces between them allowed) made one `…`.
    private static func collapsingLeaders(_ text: String) -> [Unicode.Scalar] {
        let input = Array(text.unicodeScalars)
        var output: [Unicode.Scalar] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            guard input[index] == "." else {
                output.append(input[index])
                index += 1
                continue
            }
            var end = index
            var dots = 0
            var scan = index
            while scan < input.count, input[scan] == "." || input[scan] == " " {
                if input[scan] == "." {
                    dots += 1
                    end = scan + 1
                }
                scan += 1
            }
            if dots >= 4 {
                output.append("…")
            } else {
                output.append(contentsOf: input[index..<end])
            }
            index = end
        }
        return output
    }
}
