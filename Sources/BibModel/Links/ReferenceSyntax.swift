/// One reference as written in a link's group or as a bare target: `KEY`, `KEY:12`,
/// `KEY:12-14` or `KEY:12-KEY:14`, and the checks on keys and pages shared by every syntax.
///
/// A key may itself contain colons (`Knuth:1984:TeXbook`), so the page part is found at the
/// LAST `:`: when what follows it is digits (`:12`) or digits, `-`, digits (`:12-14`) and the
/// key before it is not empty, it is a page or a page range; otherwise the whole text is the
/// key (but `KEY:12-`, a range missing its end, is an error). `Knuth:1984` therefore reads as
/// key `Knuth`, page 1984. Encoders should percent-encode
/// colons in keys (`ReferenceLink.url` does, so its links read back exactly); in a link an
/// escaped `%3A` is part of the key, never a page separator.
///
/// The numbers are printed pages (page labels). A `#` right after the colon (`KEY:#12`,
/// `KEY:#12-14`; in a link the escaped `%23`, as in `KEY:%2312`) makes them pages of the file,
/// counted from 1.
///
/// `KEY:12-KEY:14` is recognised when the text before the last `:digits` itself ends in
/// `:digits-KEY`; both keys must then be the same (compared without regard to case).
enum ReferenceSyntax {
    /// A reference read from text: its key, where the key starts, and its pages if any.
    struct Entry {
        var key: String
        var keyIndex: Int
        var pages: ClosedRange<Int>?
        var numbering: PageNumbering = .printed
    }

    /// Reads the reference in `text[range]`, percent-decoding the key when `decoding` (links) or
    /// taking it as written (bare targets).
    static func entry(in text: ScannedText, _ range: Range<Int>, decoding: Bool) throws -> Entry {
        func key(_ keyRange: Range<Int>) throws -> String {
            let decoded = decoding ? try PercentEncoding.decode(text, keyRange) : text.literal(keyRange)
            return try validatedKey(decoded, in: text, at: keyRange.lowerBound)
        }
        guard let colon = range.last(where: { text[$0] == ":" }), colon > range.lowerBound else {
            return Entry(key: try key(range), keyIndex: range.lowerBound, pages: nil)
        }
        let tail = (colon + 1)..<range.upperBound
        let prefix = range.lowerBound..<colon
        let marker = physicalMarkerLength(in: text, at: tail.lowerBound, end: tail.upperBound, decoding: decoding)
        if marker > 0 {
            // KEY:#12 or KEY:#12-14: pages of the file.
            let numbers = (tail.lowerBound + marker)..<tail.upperBound
            let pages: ClosedRange<Int>
            if let dash = dashInPageRange(text, numbers) {
                pages = try pageRange(try page(in: text, numbers.lowerBound..<dash), try page(in: text, (dash + 1)..<numbers.upperBound),
                                      in: text, at: numbers.lowerBound)
            } else {
                guard !numbers.isEmpty, numbers.allSatisfy({ text[$0].isASCIIDigit }) else {
                    throw text.error("expected a page of the file after '#' (KEY:#12 or KEY:#12-14)", at: numbers.lowerBound)
                }
                let number = try page(in: text, numbers)
                pages = number...number
            }
            return Entry(key: try key(prefix), keyIndex: prefix.lowerBound, pages: pages, numbering: .physical)
        }
        if let dash = dashInPageRange(text, tail) {
            // KEY:12-14
            let first = try page(in: text, tail.lowerBound..<dash)
            let last = try page(in: text, (dash + 1)..<tail.upperBound)
            let pages = try pageRange(first, last, in: text, at: tail.lowerBound)
            return Entry(key: try key(prefix), keyIndex: prefix.lowerBound, pages: pages)
        }
        if tail.count > 1, text[tail.upperBound - 1] == "-", tail.dropLast().allSatisfy({ text[$0].isASCIIDigit }) {
            throw text.error("expected the last page of the range after '-'", at: tail.upperBound)
        }
        guard !tail.isEmpty, tail.allSatisfy({ text[$0].isASCIIDigit }) else {
            return Entry(key: try key(range), keyIndex: range.lowerBound, pages: nil)
        }
        let last = try page(in: text, tail)
        // KEY:12-KEY:14: a '-' in the prefix with ':digits' before it and a key after it.
        var mismatch: (first: String, second: String, index: Int)?
        for dash in prefix where text[dash] == "-" && dash + 1 < prefix.upperBound {
            var digitsStart = dash
            while digitsStart > prefix.lowerBound, text[digitsStart - 1].isASCIIDigit { digitsStart -= 1 }
            let firstColon = digitsStart - 1
            guard digitsStart < dash, firstColon > prefix.lowerBound, text[firstColon] == ":" else { continue }
            let firstKeyRange = prefix.lowerBound..<firstColon
            let secondKeyRange = (dash + 1)..<prefix.upperBound
            let firstKey = try key(firstKeyRange)
            let secondKey = try key(secondKeyRange)
            guard firstKey.lowercased() == secondKey.lowercased() else {
                if mismatch == nil { mismatch = (firstKey, secondKey, secondKeyRange.lowerBound) }
                continue
            }
            let first = try page(in: text, digitsStart..<dash)
            let pages = try pageRange(first, last, in: text, at: digitsStart)
            return Entry(key: firstKey, keyIndex: prefix.lowerBound, pages: pages)
        }
        if let mismatch {
            throw text.error("both ends of a page range name the same paper; found \(mismatch.first) and \(mismatch.second)",
                             at: mismatch.index)
        }
        return Entry(key: try key(prefix), keyIndex: prefix.lowerBound, pages: last...last)
    }

    /// The length of the mark of pages of the file at `index`: `#` in a bare target, its escape
    /// `%23` in a link (`decoding`); 0 when there is none.
    private static func physicalMarkerLength(in text: ScannedText, at index: Int, end: Int, decoding: Bool) -> Int {
        if decoding { return index + 3 <= end && text.hasPrefix("%23", at: index) ? 3 : 0 }
        return index < end && text[index] == "#" ? 1 : 0
    }

    /// The index of the `-` when `text[range]` is digits, `-`, digits.
    private static func dashInPageRange(_ text: ScannedText, _ range: Range<Int>) -> Int? {
        guard let dash = text.firstIndex(of: "-", in: range),
              dash > range.lowerBound, dash + 1 < range.upperBound,
              range.allSatisfy({ $0 == dash || text[$0].isASCIIDigit }) else { return nil }
        return dash
    }

    /// The page number written in `text[range]` (ASCII digits), checked to be 1…`maxPage`.
    static func page(in text: ScannedText, _ range: Range<Int>) throws -> Int {
        var value = 0
        for index in range {
            guard let digit = text[index].wholeNumberValue, text[index].isASCII else {
                throw text.error("expected a page number (found \(text.quoted(index..<(index + 1))))", at: index)
            }
            value = value * 10 + digit
            if value > ReferenceLink.maxPage {
                throw text.error("page numbers go up to \(ReferenceLink.maxPage) (found \(text.shown(range)))",
                                 at: range.lowerBound)
            }
        }
        guard value >= 1 else {
            throw text.error("pages start at 1 (found \(text.string(range)))", at: range.lowerBound)
        }
        return value
    }

    /// `first...last`, or an error at `index` when the range ends before it starts.
    static func pageRange(_ first: Int, _ last: Int, in text: ScannedText, at index: Int) throws -> ClosedRange<Int> {
        guard first <= last else {
            throw text.error("a page range ends before it starts (\(first)-\(last))", at: index)
        }
        return first...last
    }

    /// The key in `decoded`, checked: not empty, at most `maxKeyLength` characters, no white
    /// space or control characters. `index` is where the key starts in `text`.
    static func validatedKey(_ decoded: DecodedText, in text: ScannedText, at index: Int) throws -> String {
        let key = decoded.string
        guard !key.isEmpty else {
            throw text.error("a reference needs a cite key", at: index)
        }
        if let bad = decoded.scalars.indices.first(where: { isSpaceOrControl(decoded.scalars[$0]) }) {
            throw ReferenceLinkError(
                message: "a cite key cannot contain white space or control characters (found \(describe(decoded.scalars[bad])))",
                column: decoded.columns[bad])
        }
        guard key.count <= ReferenceLink.maxKeyLength else {
            throw text.error("a cite key is at most \(ReferenceLink.maxKeyLength) characters (found \(key.count))", at: index)
        }
        return key
    }

    /// Whether `scalar` is white space or a control character.
    static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }

    /// A scalar named for a message: `a space`, `a tab`, `a line break` or `U+XXXX`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": return "a space"
        case "\t": return "a tab"
        case "\n", "\r": return "a line break"
        default:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
    }
}
