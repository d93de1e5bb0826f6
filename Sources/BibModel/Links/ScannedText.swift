/// The characters of a text being read, trimmed of white space, each with its 1-based column
/// in the text as given (so that errors point at the original).
struct ScannedText {
    /// The trimmed text, one element per character (grapheme cluster).
    let characters: [Character]
    /// The column of `characters[0]` in the text as given.
    let firstColumn: Int

    /// Trims white space around `text` and reads at most `limit` characters of what is left.
    ///
    /// Throws when more than `limit` characters remain, at the first character past the limit,
    /// without reading further.
    init(trimming text: String, limit: Int) throws {
        var start = text.startIndex
        var leading = 0
        while start < text.endIndex, text[start].isWhitespace {
            start = text.index(after: start)
            leading += 1
        }
        var end = text.endIndex
        while end > start {
            let before = text.index(before: end)
            guard text[before].isWhitespace else { break }
            end = before
        }
        var characters: [Character] = []
        for character in text[start..<end] {
            guard characters.count < limit else {
                throw ReferenceLinkError(message: "the text is longer than \(limit) characters",
                                         column: leading + limit + 1)
            }
            characters.append(character)
        }
        self.characters = characters
        self.firstColumn = leading + 1
    }

    /// The number of characters.
    var count: Int { characters.count }

    /// The character at `index`.
    subscript(index: Int) -> Character { characters[index] }

    /// The character at `index`, or nil past the end.
    func character(at index: Int) -> Character? {
        index < characters.count ? characters[index] : nil
    }

    /// The column of the character at `index` (one past the end for `count`).
    func column(_ index: Int) -> Int { firstColumn + index }

    /// The characters in `range` as a string.
    func string(_ range: Range<Int>) -> String { String(characters[range]) }

    /// Whether the characters at `index` are `prefix`, compared without regard to case.
    func hasPrefix(_ prefix: String, at index: Int = 0) -> Bool {
        var position = index
        for expected in prefix {
            guard let actual = character(at: position), actual.lowercased() == expected.lowercased() else { return false }
            position += 1
        }
        return true
    }

    /// The first index in `range` holding `character`, if any.
    func firstIndex(of character: Character, in range: Range<Int>) -> Int? {
        range.first { characters[$0] == character }
    }

    /// The first index at or after `index` (and before `end`) that is not white space.
    func skippingWhitespace(from index: Int, to end: Int? = nil, tildeIsSpace: Bool = false) -> Int {
        let end = end ?? characters.count
        var position = index
        while position < end, characters[position].isWhitespace || (tildeIsSpace && characters[position] == "~") {
            position += 1
        }
        return position
    }

    /// The scalars of the characters in `range` as written (no decoding), each with its column.
    func literal(_ range: Range<Int>) -> DecodedText {
        var decoded = DecodedText()
        for index in range {
            for scalar in characters[index].unicodeScalars {
                decoded.append(scalar, column: column(index))
            }
        }
        return decoded
    }

    /// An error saying `message` about the character at `index`.
    func error(_ message: String, at index: Int) -> ReferenceLinkError {
        ReferenceLinkError(message: message, column: column(index))
    }

    /// The characters in `range` (or from `index` to the end) for a message, quoted and cut to
    /// `limit` characters.
    func quoted(_ range: Range<Int>, limit: Int = 24) -> String {
        "'" + shown(range, limit: limit) + "'"
    }

    /// The characters in `range` for a message, cut to `limit` characters.
    func shown(_ range: Range<Int>, limit: Int = 24) -> String {
        range.count > limit ? string(range.lowerBound..<(range.lowerBound + limit)) + "…" : string(range)
    }

    /// The word starting at `index` for a message, quoted: up to white space, `~` or a digit.
    func word(at index: Int, end: Int? = nil) -> String {
        let end = end ?? characters.count
        var position = index
        while position < end {
            let character = characters[position]
            if character.isWhitespace || character == "~" { break }
            if position > index, character.isASCIIDigit { break }
            position += 1
        }
        return quoted(index..<max(position, min(index + 1, end)))
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
