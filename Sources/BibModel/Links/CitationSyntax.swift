/// Citations as written in manuscripts: pandoc (`[@knuth84, p. 33; @lamport94]`, `@knuth84`) and
/// LaTeX (`\cite[p.~5]{key1,key2}`). Each cited key becomes its own `PaperReference`, in the
/// order written (the same key twice stays two entries).
///
/// Only page locators can be followed: `p.`, `pp.`, `page`, `pages` (any case) or no term at
/// all, then page numbers: `33`, a range `33-35`, `33--35` or `33–35`, or a comma list of those
/// (`33, 35-36` gives two ranges). Any other locator or note (`chap. 3`, `and passim`) is an error.
enum CitationSyntax {
    /// The words that introduce page numbers, longest first so that `pages` wins over `page`.
    private static let pageTerms = ["pages", "page", "pp.", "p."]

    /// The page ranges of the locator in `text[range]`; none when it is empty. In LaTeX
    /// (`tildeIsSpace`) a `~` counts as a space, as in `p.~5`.
    static func pages(in text: ScannedText, _ range: Range<Int>, tildeIsSpace: Bool) throws -> [ClosedRange<Int>] {
        let end = range.upperBound
        var index = text.skippingWhitespace(from: range.lowerBound, to: end, tildeIsSpace: tildeIsSpace)
        guard index < end else { return [] }
        var term: String?
        for candidate in pageTerms where text.hasPrefix(candidate, at: index) {
            let after = index + candidate.count
            guard after <= end else { continue }
            // "page" must be a whole word: not the start of "pager" or "pageant".
            if candidate.last?.isLetter == true, after < end, text[after].isLetter { continue }
            term = text.string(index..<after)
            index = text.skippingWhitespace(from: after, to: end, tildeIsSpace: tildeIsSpace)
            break
        }
        guard index < end, text[index].isASCIIDigit else {
            if let term {
                throw text.error("expected a page number after '\(term)'", at: index)
            }
            throw text.error("only page locators can be followed (found \(text.word(at: index, end: end)))", at: index)
        }
        var pages: [ClosedRange<Int>] = []
        while true {
            let first = digits(in: text, from: index, to: end)
            let firstPage = try ReferenceSyntax.page(in: text, first)
            var lastPage = firstPage
            var next = text.skippingWhitespace(from: first.upperBound, to: end, tildeIsSpace: tildeIsSpace)
            if let dashEnd = dash(in: text, at: next, to: end) {
                let secondStart = text.skippingWhitespace(from: dashEnd, to: end, tildeIsSpace: tildeIsSpace)
                guard secondStart < end, text[secondStart].isASCIIDigit else {
                    throw text.error("expected the last page of the range after \(text.quoted(next..<dashEnd))", at: secondStart)
                }
                let second = digits(in: text, from: secondStart, to: end)
                lastPage = try ReferenceSyntax.page(in: text, second)
                next = text.skippingWhitespace(from: second.upperBound, to: end, tildeIsSpace: tildeIsSpace)
            }
            pages.append(try ReferenceSyntax.pageRange(firstPage, lastPage, in: text, at: index))
            guard next < end else { return pages }
            guard text[next] == "," else {
                throw text.error("unexpected text after the page numbers (found \(text.word(at: next, end: end)))", at: next)
            }
            index = text.skippingWhitespace(from: next + 1, to: end, tildeIsSpace: tildeIsSpace)
            guard index < end, text[index].isASCIIDigit else {
                throw text.error("expected a page number after ','", at: index)
            }
        }
    }

    /// The run of ASCII digits starting at `index`.
    private static func digits(in text: ScannedText, from index: Int, to end: Int) -> Range<Int> {
        var position = index
        while position < end, text[position].isASCIIDigit { position += 1 }
        return index..<position
    }

    /// The end of a range dash (`-`, `--` or `–`) at `index`, if there is one.
    private static func dash(in text: ScannedText, at index: Int, to end: Int) -> Int? {
        guard index < end else { return nil }
        switch text[index] {
        case "–": return index + 1
        case "-": return index + 1 < end && text[index + 1] == "-" ? index + 2 : index + 1
        default: return nil
        }
    }

    /// Throws when `count` papers have been read already and one more is about to be added at `index`.
    static func checkRoom(for count: Int, in text: ScannedText, at index: Int) throws {
        guard count < ReferenceLink.maxPapers else {
            throw text.error("a citation names at most \(ReferenceLink.maxPapers) papers", at: index)
        }
    }

    /// Throws unless only white space follows `index`.
    static func expectEnd(of text: ScannedText, after index: Int) throws {
        let rest = text.skippingWhitespace(from: index)
        guard rest == text.count else {
            throw text.error("unexpected text after the citation (found \(text.quoted(rest..<text.count, limit: 12)))", at: rest)
        }
    }
}
