extension CitationSyntax {
    /// Punctuation a pandoc key may hold between word characters (`knuth:84`, `doe-99`).
    private static let internalPunctuation: Set<Character> = [":", ".", "#", "$", "%", "&", "-", "+", "?", "<", ">", "~", "/"]

    /// Whether pandoc reads `text` as a citation: it starts with `[` or `@`.
    static func isPandoc(_ text: ScannedText) -> Bool {
        text.character(at: 0) == "[" || text.character(at: 0) == "@"
    }

    /// Reads a pandoc citation: in-text `@key` (optionally `@key [p. 33]`) or bracketed
    /// `[see -@key, pp. 33-35; @other]`.
    ///
    /// A key starts with a letter, a digit or `_` and goes on with letters, digits, `_` and the
    /// punctuation `:.#$%&-+?<>~/` when a letter, digit or `_` follows it (so `@doe99.` is
    /// `doe99`); any other key is written in braces: `@{knuth:84}`. Prefixes (`see`) and the
    /// author-suppressing `-` are accepted and dropped; a suffix must be a page locator.
    static func parsePandoc(_ text: ScannedText) throws -> [PaperReference] {
        if text[0] == "@" {
            let (key, afterKey) = try pandocKey(in: text, at: 1)
            var pages: [ClosedRange<Int>] = []
            var index = text.skippingWhitespace(from: afterKey)
            if index < text.count, text[index] == "[" {
                let open = index
                guard let close = text.firstIndex(of: "]", in: (open + 1)..<text.count) else {
                    throw text.error("this '[' has no matching ']'", at: open)
                }
                pages = try suffixPages(in: text, (open + 1)..<close)
                index = close + 1
            }
            try expectEnd(of: text, after: index)
            return [PaperReference(key: key, pages: pages)]
        }
        let open = 0
        var papers: [PaperReference] = []
        var index = 1
        while true {
            // The prefix, up to '@'.
            var at = index
            while at < text.count, text[at] != "@", text[at] != ";", text[at] != "]" {
                if text[at] == "[" { throw text.error("unexpected '[' inside a citation", at: at) }
                at += 1
            }
            guard at < text.count else { throw text.error("this '[' has no matching ']'", at: open) }
            guard text[at] == "@" else {
                throw text.error("a citation needs a cite key: expected '@key'", at: at)
            }
            try checkRoom(for: papers.count, in: text, at: at)
            let (key, afterKey) = try pandocKey(in: text, at: at + 1)
            // The suffix, up to ';' or ']'.
            var end = afterKey
            while end < text.count, text[end] != ";", text[end] != "]" {
                if text[end] == "[" { throw text.error("unexpected '[' inside a citation", at: end) }
                end += 1
            }
            guard end < text.count else { throw text.error("this '[' has no matching ']'", at: open) }
            papers.append(PaperReference(key: key, pages: try suffixPages(in: text, afterKey..<end)))
            index = end + 1
            if text[end] == "]" { break }
        }
        try expectEnd(of: text, after: index)
        return papers
    }

    /// The pages of a pandoc suffix: an optional `,`, then a page locator (or nothing).
    private static func suffixPages(in text: ScannedText, _ range: Range<Int>) throws -> [ClosedRange<Int>] {
        var start = text.skippingWhitespace(from: range.lowerBound, to: range.upperBound)
        if start < range.upperBound, text[start] == "," { start += 1 }
        return try pages(in: text, start..<range.upperBound, tildeIsSpace: false)
    }

    /// The pandoc key starting at `index` (just after `@`) and the index after it.
    private static func pandocKey(in text: ScannedText, at index: Int) throws -> (String, Int) {
        guard let first = text.character(at: index) else {
            throw text.error("expected a cite key after '@'", at: index)
        }
        if first == "{" {
            guard let close = text.firstIndex(of: "}", in: (index + 1)..<text.count) else {
                throw text.error("this '{' has no matching '}'", at: index)
            }
            let key = try ReferenceSyntax.validatedKey(text.literal((index + 1)..<close), in: text, at: index + 1)
            return (key, close + 1)
        }
        guard isWordCharacter(first) else {
            throw text.error("a cite key starts with a letter, a digit or '_' (found \(text.quoted(index..<(index + 1))))", at: index)
        }
        var end = index + 1
        while let character = text.character(at: end) {
            if isWordCharacter(character) {
                end += 1
            } else if internalPunctuation.contains(character), let next = text.character(at: end + 1), isWordCharacter(next) {
                end += 2
            } else {
                break
            }
        }
        let key = try ReferenceSyntax.validatedKey(text.literal(index..<end), in: text, at: index)
        return (key, end)
    }

    /// Letters, digits and `_`.
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
