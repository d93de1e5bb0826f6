/// The words typed in the keywords prompt: `word` adds, `-word` removes (`+word` adds too);
/// words are separated by spaces, commas or semicolons, and a keyword with spaces is quoted
/// (`"machine learning"`, `-"machine learning"`). A quote left open runs to the end.
struct KeywordInput: Equatable {
    /// One word as typed.
    struct Word: Equatable {
        /// The keyword (without its sign and quotes).
        let text: String
        let removing: Bool
        /// Where it starts in the text (its sign included), as a character index.
        let start: Int
        /// Where it ends (after its closing quote, if any).
        let end: Int
        /// Whether it is quoted and the quote is closed (nothing more can be typed into it).
        let isClosed: Bool
    }

    let words: [Word]

    init(_ characters: [Character]) {
        var words: [Word] = []
        var index = 0
        func isSeparator(_ character: Character) -> Bool { character == " " || character == "," || character == ";" }
        while index < characters.count {
            guard !isSeparator(characters[index]) else {
                index += 1
                continue
            }
            let start = index
            var removing = false
            if characters[index] == "-" || characters[index] == "+" {
                removing = characters[index] == "-"
                index += 1
            }
            var text = ""
            var isClosed = false
            if index < characters.count, characters[index] == "\"" {
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    text.append(characters[index])
                    index += 1
                }
                if index < characters.count {
                    index += 1
                    isClosed = true
                }
            } else {
                while index < characters.count, !isSeparator(characters[index]) {
                    text.append(characters[index])
                    index += 1
                }
            }
            words.append(Word(text: text.trimmingCharacters(in: .whitespaces), removing: removing, start: start, end: index,
                              isClosed: isClosed))
        }
        self.words = words
    }

    /// The word the insertion point (at the end) is in: its sign, its text so far and where it
    /// starts; an empty word at the end when the text ends between words.
    static func wordAtEnd(of characters: [Character]) -> (removing: Bool, prefix: String, start: Int) {
        if let last = KeywordInput(characters).words.last, last.end == characters.count, !last.isClosed {
            return (last.removing, last.text, last.start)
        }
        return (false, "", characters.count)
    }

    /// A keyword as it is typed: quoted when it holds a space.
    static func typed(_ keyword: String, removing: Bool) -> String {
        (removing ? "-" : "") + (keyword.contains(" ") ? "\"\(keyword)\"" : keyword)
    }
}
