extension CitationSyntax {
    /// The citation commands read (each also with `*`): natbib's and biblatex's common ones,
    /// with biblatex's and natbib's capitalised forms.
    private static let latexCommands: Set<String> = [
        "cite", "citep", "citet", "parencite", "textcite", "autocite", "footcite",
        "Cite", "Citep", "Citet", "Parencite", "Textcite", "Autocite", "Footcite",
    ]

    /// Whether `text` is meant as a LaTeX command: it starts with `\`.
    static func isLaTeX(_ text: ScannedText) -> Bool {
        text.character(at: 0) == "\\"
    }

    /// Reads `\cite{a,b}`, `\cite[post]{a}` or `\cite[pre][post]{a}` (and the other commands).
    ///
    /// The postnote must be a page locator (`p.~5`, `pp.~5--7`, `5`) or empty; as natbib and
    /// biblatex print it after the whole citation, its pages go to the LAST key. The prenote is
    /// dropped. Keys are separated by commas, white space around them trimmed.
    static func parseLaTeX(_ text: ScannedText) throws -> [PaperReference] {
        var index = 1
        while let character = text.character(at: index), character.isASCII, character.isLetter { index += 1 }
        let name = text.string(1..<index)
        guard latexCommands.contains(name) else {
            let found = name.isEmpty ? "" : " '\\\(name)'"
            throw text.error("unknown citation command\(found) (expected \\cite, \\citep, \\citet, \\parencite, \\textcite, \\autocite or \\footcite)", at: 0)
        }
        if text.character(at: index) == "*" { index += 1 }
        var optional: [Range<Int>] = []
        while true {
            index = text.skippingWhitespace(from: index)
            guard text.character(at: index) == "[" else { break }
            guard optional.count < 2 else {
                throw text.error("a citation command takes at most two optional arguments", at: index)
            }
            let close = try closingBracket(in: text, from: index)
            optional.append((index + 1)..<close)
            index = close + 1
        }
        guard text.character(at: index) == "{" else {
            throw text.error("expected '{' with the cite keys", at: index)
        }
        let open = index
        var close = open + 1
        while close < text.count, text[close] != "}" {
            if text[close] == "{" { throw text.error("unexpected '{' inside the cite keys", at: close) }
            close += 1
        }
        guard close < text.count else { throw text.error("this '{' has no matching '}'", at: open) }
        // The postnote comes first in the text, so its errors are reported first.
        let postnotePages = try optional.last.map { try pages(in: text, $0, tildeIsSpace: true) } ?? []

        var papers: [PaperReference] = []
        var start = open + 1
        while true {
            let end = text.firstIndex(of: ",", in: start..<close) ?? close
            let keyStart = text.skippingWhitespace(from: start, to: end)
            var keyEnd = end
            while keyEnd > keyStart, text[keyEnd - 1].isWhitespace { keyEnd -= 1 }
            guard keyEnd > keyStart else {
                throw text.error(start == close && papers.isEmpty ? "the citation names no cite key" : "empty cite key", at: keyStart)
            }
            try checkRoom(for: papers.count, in: text, at: keyStart)
            let key = try ReferenceSyntax.validatedKey(text.literal(keyStart..<keyEnd), in: text, at: keyStart)
            papers.append(PaperReference(key: key))
            guard end < close else { break }
            start = end + 1
        }
        try expectEnd(of: text, after: close + 1)
        if let last = papers.indices.last { papers[last].pages = postnotePages }
        return papers
    }

    /// The `]` closing the optional argument opened at `open`, skipping brace groups.
    private static func closingBracket(in text: ScannedText, from open: Int) throws -> Int {
        var depth = 0
        var index = open + 1
        while index < text.count {
            switch text[index] {
            case "{": depth += 1
            case "}":
                guard depth > 0 else { throw text.error("unexpected '}' inside '[…]'", at: index) }
                depth -= 1
            case "]" where depth == 0: return index
            default: break
            }
            index += 1
        }
        throw text.error("this '[' has no matching ']'", at: open)
    }
}
