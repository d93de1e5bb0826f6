/// Prepares a page's extracted text for the index: words hyphenated across line ends joined,
/// soft hyphens dropped, ligatures spelled out. Line breaks are kept, so snippets stay readable
/// (the tokenizer treats them as spaces).
enum PageTextNormalizer {
    /// `text` ready for indexing.
    ///
    /// At a line that ends in a hyphen (`-`, U+2010 or a soft hyphen) right after a letter:
    /// - before a lower-case letter the hyphen and the line break go (`dyna-` + `mic` →
    ///   `dynamic`), unless the word before already holds a hyphen: then only the line break
    ///   goes (`state-of-the-` + `art` → `state-of-the-art`);
    /// - before anything else (an upper-case letter, a digit: `Hilbert-` + `Schmidt`, `ISO-` +
    ///   `9001`) the hyphen stays and only the line break goes; a soft hyphen always goes.
    /// A hyphen after a space or a digit (a dash, a list bullet, a range) is left alone, as are
    /// hyphens inside a line.
    static func normalize(_ text: String) -> String {
        guard needsWork(text) else { return text }
        let input = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        output.reserveCapacity(input.count)
        var index = 0
        // Whether the current word (letters, digits and hyphens) holds a hyphen so far.
        var wordHasHyphen = false
        var previous: Unicode.Scalar?
        while index < input.count {
            let scalar = input[index]
            if isHyphen(scalar), let before = previous, before.properties.isAlphabetic,
               let next = lineContinuation(input, after: index) {
                let following = input[next]
                if scalar == softHyphen {
                    index = next
                } else if following.properties.isLowercase && !wordHasHyphen {
                    index = next
                } else {
                    output.append("-")
                    wordHasHyphen = true
                    previous = "-"
                    index = next
                }
                continue
            }
            index += 1
            if scalar == softHyphen { continue }
            if let expansion = ligatures[scalar] {
                output.append(contentsOf: expansion.unicodeScalars)
                previous = expansion.unicodeScalars.last
                continue
            }
            output.append(scalar)
            previous = scalar
            if isHyphen(scalar) {
                wordHasHyphen = true
            } else if !(scalar.properties.isAlphabetic || scalar.properties.numericType != nil) {
                wordHasHyphen = false
            }
        }
        return String(output)
    }

    /// Whether `text` has anything `normalize` changes: a hyphen at a line end, a soft hyphen,
    /// U+2010 or a ligature. Most pages have none (PDFText joins most hyphenated words already),
    /// and this byte scan is much cheaper than going through the scalars.
    private static func needsWork(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                switch bytes[index] {
                case 0x2D: // "-": at a line end?
                    var next = index + 1
                    while next < count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
                    if next < count, bytes[next] == 0x0A || bytes[next] == 0x0D { return true }
                case 0xC2: // U+00AD soft hyphen
                    if index + 1 < count, bytes[index + 1] == 0xAD { return true }
                case 0xE2: // U+2010 hyphen
                    if index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0x90 { return true }
                case 0xEF: // U+FB00...U+FB06 ligatures
                    if index + 2 < count, bytes[index + 1] == 0xAC, (0x80...0x86).contains(bytes[index + 2]) { return true }
                default:
                    break
                }
                index += 1
            }
            return false
        }
    }

    /// When the scalar at `index` ends its line (only spaces or tabs, then a line break, follow)
    /// and the next line has text: the index of that text's first scalar.
    private static func lineContinuation(_ input: [Unicode.Scalar], after index: Int) -> Int? {
        var position = index + 1
        while position < input.count, input[position] == " " || input[position] == "\t" { position += 1 }
        guard position < input.count, input[position] == "\n" || input[position] == "\r" else { return nil }
        if input[position] == "\r", position + 1 < input.count, input[position + 1] == "\n" { position += 1 }
        position += 1
        while position < input.count, input[position] == " " || input[position] == "\t" { position += 1 }
        guard position < input.count, !input[position].properties.isWhitespace else { return nil }
        return position
    }

    private static let softHyphen: Unicode.Scalar = "\u{00AD}"

    private static func isHyphen(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "-" || scalar == "\u{2010}" || scalar == softHyphen
    }

    /// Latin ligatures spelled out (the tokenizer folds them too; this keeps snippets plain).
    static let ligatures: [Unicode.Scalar: String] = [
        "\u{FB00}": "ff", "\u{FB01}": "fi", "\u{FB02}": "fl", "\u{FB03}": "ffi", "\u{FB04}": "ffl",
        "\u{FB05}": "st", "\u{FB06}": "st",
    ]
}
