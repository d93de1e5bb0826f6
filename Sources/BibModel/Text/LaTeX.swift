import Foundation
import PropertyList

/// Turns the LaTeX found in BibTeX values into plain Unicode text for display and search.
///
/// Accents in every common form (`{\"o}`, `\"{o}`, `\"o`, `{\'\i}`, `\c{c}`, `\v s`), special
/// letters (`\ss`, `\o`, `\aa`, ...), dashes, ties, escaped specials, text commands (`\emph`,
/// `\textbf`, `\url`, ...) and simple math (`$\alpha$`) are decoded; case-protecting braces go.
/// A command it does not know stays visible as text. Runs of white space become one space.
public enum LaTeX {
    /// Decodes a LaTeX string.
    public static func decode(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { decode($0) }
    }

    /// Decodes LaTeX given as UTF-8 bytes.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if isPlain(bytes) { return String(decoding: bytes, as: UTF8.self) }
        var decoder = Decoder(input: bytes)
        defer { decoder.output.deallocate() }
        decoder.run()
        return decoder.text
    }

    /// Decodes LaTeX given as UTF-8 bytes and calls `body` with the result's UTF-8, the same
    /// text `decode(_:)` returns. It makes no String when it need not: plain text is passed as
    /// it is, and decoded text straight from `scratch` (a buffer the caller reuses) when it
    /// needs no Unicode composition and is well-formed.
    public static func withDecoded<Result>(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout ByteBuffer,
                                           _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withDecoded(bytes, scratch: &scratch) { decoded, _ in body(decoded) }
    }

    /// `withDecoded(_:scratch:_:)`, telling `body` too whether the text was plain (`isPlain`):
    /// passed as it is, and so holding no byte that needs escaping in a JSON string.
    public static func withDecoded<Result>(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout ByteBuffer,
                                           _ body: (UnsafeBufferPointer<UInt8>, _ wasPlain: Bool) -> Result) -> Result {
        if isPlain(bytes) { return body(bytes, true) }
        scratch.truncate(to: 0)
        var decoder = Decoder(input: bytes, output: scratch)
        decoder.run()
        scratch = decoder.output  // the decoder may have moved it to grow it
        let decoded = UnsafeBufferPointer(start: scratch.base, count: scratch.count)
        if !decoder.needsComposition && UTF8Validation.firstInvalidOffset(in: decoded) == nil {
            return body(decoded, false)
        }
        var text = decoder.text
        return text.withUTF8 { body($0, false) }
    }

    /// Appends the UTF-8 of `decode(bytes)` to `buffer`, decoding straight into it; a String is
    /// made only when the text needs Unicode composition or repair.
    public static func appendDecoded(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
        let start = buffer.count
        var needsComposition = false
        if isPlain(bytes) {
            buffer.append(bytes)
        } else {
            var decoder = Decoder(input: bytes, output: buffer)
            decoder.run()
            buffer = decoder.output  // the decoder may have moved it to grow it
            needsComposition = decoder.needsComposition
        }
        let written = UnsafeBufferPointer(start: buffer.base + start, count: buffer.count - start)
        guard needsComposition || UTF8Validation.firstInvalidOffset(in: written) != nil else { return }
        let repaired = buffer.string(from: start)
        buffer.truncate(to: start)
        buffer.append(needsComposition ? repaired.precomposedStringWithCanonicalMapping : repaired)
    }

    /// Unescapes a path, URL or identifier without typesetting it: `\url{...}` and braces go,
    /// `\_ \% \& \# \$ \~` become the character, and nothing else changes.
    public static func decodeVerbatim(_ text: String) -> String {
        guard needsUnescaping(text) else { return text.trimmedASCII }
        var result = ""
        var characters = text[...]
        for prefix in ["\\url{", "\\path{"] where characters.hasPrefix(prefix) {
            characters = characters.dropFirst(prefix.count - 1)
        }
        let tilde = "\\textasciitilde"
        while let character = characters.first {
            characters = characters.dropFirst()
            switch character {
            case "{", "}":
                continue
            case "\\":
                if characters.hasPrefix(tilde.dropFirst()) {
                    result.append("~")
                    characters = characters.dropFirst(tilde.count - 1)
                } else if let next = characters.first, "_%&#$~{}\\".contains(next) {
                    result.append(next)
                    characters = characters.dropFirst()
                } else {
                    result.append("\\")
                }
            default:
                result.append(character)
            }
        }
        return result.trimmedASCII
    }

    /// Calls `body` with the UTF-8 of `decodeVerbatim` of these bytes. A value with nothing to
    /// unescape (most URLs and DOIs) is only trimmed, with no String made.
    public static func withDecodedVerbatim<Result>(_ bytes: UnsafeBufferPointer<UInt8>,
                                                   _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if !needsUnescaping(bytes), UTF8Validation.firstInvalidOffset(in: bytes) == nil {
            return body(bytes.trimmedASCII)
        }
        var text = decodeVerbatim(String(decoding: bytes, as: UTF8.self))
        return text.withUTF8(body)
    }

    /// True when a verbatim value holds a backslash or a brace (most URLs and DOIs hold none).
    private static func needsUnescaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { needsUnescaping($0) }
    }

    private static func needsUnescaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
    }

    /// True when decoding would return the text unchanged and the text holds no `"`, `\\` or
    /// control character (C0, DEL, C1): plain text needs no escaping in a JSON string either. (Decoding leaves `"`
    /// and control bytes as they are: text with them is decoded to itself.)
    public static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first == 0x20 || last == 0x20 { return false }
        var previous: UInt8 = 0
        let classes = plainClass
        for byte in bytes {
            switch classes[Int(byte)] {
            case 0:
                break
            case 1:
                return false
            default:
                // `--`, `''` and two spaces are typeset.
                if byte == previous { return false }
            }
            previous = byte
        }
        return true
    }

    /// The bytes that end a run of ordinary text in the decoder, true for each: everything
    /// `decode(until:)` treats specially (`{ } \\ $ ~`, space, tab, line ends, `-`, `` ` ``,
    /// `'`, `^`, `_`). A table, not a `switch`, which compiles to an indirect jump for every
    /// ASCII byte of a run.
    static let runEnders: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "{}\\$~ \t\n\r-`'^_".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Per byte: 0 plain; 1 never plain (backslash, braces, dollar, tilde, backquote, and for
    /// JSON's sake `"` and every control byte, tab and line ends among them, DEL, and 0xC2, the
    /// first byte of the C1 controls, which JSON output escapes too); 2 plain unless doubled
    /// (hyphen, apostrophe, space).
    private static let plainClass: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in "\\{}$~`\"".utf8 { table[Int(byte)] = 1 }
        for byte in 0..<0x20 { table[byte] = 1 }
        table[0x7F] = 1
        table[0xC2] = 1
        for byte in "-' ".utf8 { table[Int(byte)] = 2 }
        return table
    }()
}

private struct Decoder {
    let input: UnsafeBufferPointer<UInt8>
    var position = 0
    var output: ByteBuffer
    var needsComposition = false
    var inMath = false
    /// Single quotes opened with a backquote (‘) and not yet closed: an apostrophe closes one
    /// (’) unless it stands between two letters (`Knuth's`), where it stays an apostrophe.
    private var openSingleQuotes = 0
    /// How many command arguments are being decoded inside each other.
    private var nesting = 0
    /// True when the last byte written is a space (or nothing was written yet), to fold runs.
    private var pendingSpace = false
    /// Where this decoder's text starts in `output`: what comes before is someone else's.
    private let outputStart: Int

    init(input: UnsafeBufferPointer<UInt8>) {
        self.input = input
        output = ByteBuffer(capacity: input.count + 16)
        outputStart = 0
    }

    /// A decoder that appends to `output` (which the caller owns and frees).
    init(input: UnsafeBufferPointer<UInt8>, output: ByteBuffer) {
        self.input = input
        self.output = output
        outputStart = output.count
    }

    mutating func run() {
        decode(until: input.count, stopAtGroupEnd: false)
    }

    /// What `run()` wrote, as text: bytes that are not UTF-8 repaired, accents composed.
    var text: String {
        let result = output.string()
        return needsComposition ? result.precomposedStringWithCanonicalMapping : result
    }

    // MARK: - Output

    private mutating func emit(_ byte: UInt8) {
        writePendingSpace()
        output.append(byte)
    }

    private mutating func emit(_ text: String) {
        var text = text
        text.withUTF8 { emit($0) }
    }

    private mutating func emit(_ bytes: UnsafeBufferPointer<UInt8>) {
        writePendingSpace()
        output.append(bytes)
    }

    private mutating func emitSpace() {
        pendingSpace = true
    }

    /// Writes the space folded from the white space before, unless this decoder has written
    /// nothing yet (leading white space is dropped).
    private mutating func writePendingSpace() {
        if pendingSpace && output.count > outputStart { output.append(0x20) }
        pendingSpace = false
    }

    // MARK: - Decoding

    /// Decodes until `end`, or until the `}` closing the current group when `stopAtGroupEnd`.
    private mutating func decode(until end: Int, stopAtGroupEnd: Bool) {
        var depth = 0
        while position < end {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "{"):
                position += 1
                depth += 1
            case UInt8(ascii: "}"):
                position += 1
                if depth == 0 {
                    if stopAtGroupEnd { return }
                } else {
                    depth -= 1
                }
            case UInt8(ascii: "\\"):
                command()
            case UInt8(ascii: "$"):
                position += 1
                if position < end, input[position] == UInt8(ascii: "$") { position += 1 }
                inMath.toggle()
            case UInt8(ascii: "~"):
                position += 1
                emitSpace()
            case 0x20, 0x09, 0x0A, 0x0D:
                position += 1
                emitSpace()
            case UInt8(ascii: "-") where !inMath:
                dashes()
            case UInt8(ascii: "`") where !inMath:
                if peek(1) == UInt8(ascii: "`") {
                    position += 2
                    emit("“")
                } else {
                    position += 1
                    openSingleQuotes += 1
                    emit("‘")
                }
            case UInt8(ascii: "'") where !inMath && peek(1) == UInt8(ascii: "'"):
                position += 2
                emit("”")
            case UInt8(ascii: "'") where !inMath && openSingleQuotes > 0 && !isBetweenLetters():
                position += 1
                openSingleQuotes -= 1
                emit("’")
            case UInt8(ascii: "^") where inMath, UInt8(ascii: "_") where inMath:
                position += 1
                script(superscript: byte == UInt8(ascii: "^"))
            default:
                copyOrdinaryRun(until: end)
            }
        }
    }

    /// True when the byte at `position` has a letter written just before it and one just after
    /// it in the input (non-ASCII bytes count as letters).
    private func isBetweenLetters() -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { byte >= 0x80 || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) }
        guard output.count > outputStart, position + 1 < input.count else { return false }
        return isLetter(output[output.count - 1]) && isLetter(input[position + 1])
    }

    /// Copies a run of bytes that need no decoding in one go (the common case inside a value).
    private mutating func copyOrdinaryRun(until end: Int) {
        let start = position
        position = LaTeX.runEnders.withUnsafeBufferPointer { special in
            var index = start + 1
            while index < end {
                let byte = input[index]
                // A single space between two ordinary bytes stays in the run (prose goes in
                // one copy); any other space is left to `decode`, which folds runs of white
                // space.
                if byte == 0x20, index + 1 < end, !special[Int(input[index + 1])] {
                    index += 2
                    continue
                }
                if special[Int(byte)] { break }
                index += 1
            }
            return index
        }
        writePendingSpace()
        output.append(UnsafeBufferPointer(rebasing: input[start..<position]))
    }

    private func peek(_ distance: Int) -> UInt8? {
        position + distance < input.count ? input[position + distance] : nil
    }

    private mutating func dashes() {
        var count = 0
        while position < input.count, input[position] == UInt8(ascii: "-") {
            count += 1
            position += 1
        }
        switch count {
        case 1: emit(UInt8(ascii: "-"))
        case 2: emit("–")
        default:
            emit("—")
            for _ in 0..<max(0, count - 3) { emit(UInt8(ascii: "-")) }
        }
    }

    /// A `\` sequence: a control word (`\emph`) or a control symbol (`\&`, `\"`).
    private mutating func command() {
        position += 1
        guard position < input.count else {
            emit(UInt8(ascii: "\\"))
            return
        }
        let first = input[position]
        if isLetter(first) {
            let start = position
            while position < input.count, isLetter(input[position]) { position += 1 }
            controlWord(UnsafeBufferPointer(rebasing: input[start..<position]))
        } else {
            position += 1
            controlSymbol(first)
        }
    }

    /// TeX drops the spaces after a control word in text; in math they are kept (and folded),
    /// so that `$O(n \log n)$` keeps its space.
    private mutating func skipSpacesAfterControlWord() {
        if inMath { return }
        while position < input.count, input[position] == 0x20 || input[position] == 0x0A || input[position] == 0x09 {
            position += 1
        }
    }

    private mutating func controlSymbol(_ symbol: UInt8) {
        if let mark = LaTeXTables.accentMarks[symbol] {
            accent(mark)
            return
        }
        switch symbol {
        case UInt8(ascii: "&"), UInt8(ascii: "%"), UInt8(ascii: "$"), UInt8(ascii: "_"), UInt8(ascii: "#"),
             UInt8(ascii: "{"), UInt8(ascii: "}"):
            emit(symbol)
        case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: ">"), 0x0A, 0x09:
            emitSpace()
        case UInt8(ascii: "\\"):
            emitSpace()
        case UInt8(ascii: "-"), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "@"):
            break  // discretionary hyphen, italic correction, negative thin space, spacing hint
        default:
            emit(UInt8(ascii: "\\"))
            emit(symbol)
        }
    }

    private mutating func controlWord(_ name: UnsafeBufferPointer<UInt8>) {
        let table = ControlWordTable.shared
        guard let meaning = table.meaning(of: name) else {
            unknownControlWord(name)
            return
        }
        if meaning.letterAccent >= 0 {
            skipSpacesAfterControlWord()
            accent(table.letterAccents[Int(meaning.letterAccent)])
            return
        }
        if meaning.symbol.exists {
            skipSpacesAfterControlWord()
            emit(table.bytes(of: meaning.symbol))
            return
        }
        if inMath, meaning.mathSymbol.exists {
            skipSpacesAfterControlWord()
            emit(table.bytes(of: meaning.mathSymbol))
            return
        }
        if meaning.isTransparent {
            skipSpacesAfterControlWord()
            argumentGroup()
            return
        }
        if meaning.isDeclaration {
            skipSpacesAfterControlWord()
            return
        }
        switch meaning.special {
        case .href:
            skipSpacesAfterControlWord()
            skipGroup()  // the URL
            argumentGroup()
        case .skipArgument:
            skipSpacesAfterControlWord()
            skipGroup()
        case .quote:
            skipSpacesAfterControlWord()
            emit("“")
            argumentGroup()
            emit("”")
        case .fraction where inMath:
            argumentGroup()
            emit(UInt8(ascii: "/"))
            argumentGroup()
        case .squareRoot where inMath:
            emit("√")
            argumentGroup()
        case .doubleStruck:
            doubleStruck()
        default:
            if meaning.mathSymbol.exists {
                // Math symbols written outside `$...$` still mean the symbol.
                skipSpacesAfterControlWord()
                emit(table.bytes(of: meaning.mathSymbol))
                return
            }
            unknownControlWord(name)
        }
    }

    /// A control word the decoder does not know: kept visible, with its braces, so nothing is lost.
    private mutating func unknownControlWord(_ name: UnsafeBufferPointer<UInt8>) {
        emit(UInt8(ascii: "\\"))
        emit(name)
        if position < input.count, input[position] == UInt8(ascii: "{") {
            emit(UInt8(ascii: "{"))
            argumentGroup()
            emit(UInt8(ascii: "}"))
        }
    }

    /// Decodes one argument: a `{group}` or a single character (when not a group, nothing else).
    private mutating func argumentGroup() {
        skipBlanks()
        guard position < input.count else { return }
        if input[position] == UInt8(ascii: "{") {
            position += 1
            // Hostile input can nest commands without end; past this depth arguments are read
            // as plain groups (braces dropped), which needs no recursion.
            guard nesting < Decoder.maximumNesting else { return }
            nesting += 1
            defer { nesting -= 1 }
            decode(until: input.count, stopAtGroupEnd: true)
        } else {
            singleToken()
        }
    }

    /// How deep command arguments may nest before they are read as plain groups.
    static let maximumNesting = 200

    private mutating func skipGroup() {
        skipBlanks()
        guard position < input.count, input[position] == UInt8(ascii: "{") else { return }
        var depth = 0
        while position < input.count {
            let byte = input[position]
            position += 1
            if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return }
            }
        }
    }

    private mutating func skipBlanks() {
        while position < input.count, input[position] == 0x20 { position += 1 }
    }

    /// One character (a whole UTF-8 sequence) or one command.
    private mutating func singleToken() {
        guard position < input.count else { return }
        if input[position] == UInt8(ascii: "\\") {
            command()
            return
        }
        let length = utf8Length(input[position])
        for _ in 0..<length where position < input.count {
            emit(input[position])
            position += 1
        }
    }

    /// An accent command: decode its argument, then put the combining mark after its first letter.
    private mutating func accent(_ mark: LaTeXTables.Accent) {
        let before = output.count + (pendingSpace && output.count > outputStart ? 1 : 0)
        argumentGroup()
        guard output.count > before else {
            emit(mark.spacing)
            return
        }
        let baseEnd = min(output.count, before + utf8Length(output[before]))
        let base = String(decoding: UnsafeBufferPointer(start: output.base + before, count: baseEnd - before), as: UTF8.self)
            .unicodeScalars.first
        // A combining mark already after the base (stacked accents) needs full normalisation.
        let followedByMark = baseEnd < output.count && (output[baseEnd] == 0xCC || output[baseEnd] == 0xCD)
        if let base, !followedByMark, let composed = Composition.compose(base, mark.combining) {
            // The common case: one precomposed character (ö, ő, č), found in a small table.
            var bytes: [UInt8] = []
            TextEncoding.appendUTF8(composed.value, to: &bytes)
            output.replace(before..<baseEnd, with: bytes)
            return
        }
        var markBytes: [UInt8] = []
        TextEncoding.appendUTF8(mark.combining.value, to: &markBytes)
        output.replace(baseEnd..<baseEnd, with: markBytes)
        needsComposition = true
    }

    /// `^2`, `^{10}`, `_i`: Unicode super- and subscripts where they exist, else `^(...)`.
    ///
    /// The script is decoded in place and only short ones are mapped, so that scripts nested
    /// in scripts (`x^{y^{z^{...}}}`) cost a move of the bytes per level, never a copy.
    private mutating func script(superscript: Bool) {
        writePendingSpace()
        let start = output.count
        argumentGroup()
        pendingSpace = false
        let length = output.count - start
        let marker = superscript ? UInt8(ascii: "^") : UInt8(ascii: "_")
        let head = output.string(from: start, count: min(length, Decoder.maximumMappedScript + 1))
        if length > 0, length <= Decoder.maximumMappedScript {
            let table = superscript ? LaTeXTables.superscripts : LaTeXTables.subscripts
            let mapped = head.unicodeScalars.map { table[$0] }
            if mapped.allSatisfy({ $0 != nil }) {
                output.replace(start..<output.count, with: Array(String(mapped.compactMap { $0 }).utf8))
                return
            }
        }
        // More than one character is put in parentheses (a long script always is).
        if length > Decoder.maximumMappedScript || head.count > 1 {
            output.replace(start..<start, with: [marker, UInt8(ascii: "(")])
            output.append(UInt8(ascii: ")"))
        } else {
            output.replace(start..<start, with: [marker])
        }
    }

    /// The longest script (in bytes) turned into Unicode super- or subscript characters.
    static let maximumMappedScript = 32

    private mutating func doubleStruck() {
        let start = output.count
        argumentGroup()
        // The table's keys are single letters; anything longer stays as decoded.
        guard output.count - start <= 4 else { return }
        let letters = output.string(from: start)
        guard let mapped = LaTeXTables.doubleStruck[letters] else { return }
        output.truncate(to: start)
        emit(mapped)
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}
