import Foundation
import PropertyList

/// One person of an `author` or `editor` list, split by BibTeX's rules.
///
/// `First von Last`, `von Last, First` and `von Last, Jr, First` are understood; braces protect
/// (`{Barnes and Noble}` is one last name); the von part is the run of words that start in lower
/// case. All parts are decoded to Unicode.
public struct PersonName: Sendable, Hashable {
    public let first: String
    public let von: String
    public let last: String
    public let jr: String

    public init(first: String = "", von: String = "", last: String, jr: String = "") {
        self.first = first
        self.von = von
        self.last = last
        self.jr = jr
    }

    /// Decodes the parts of a name found at `spans` in `bytes`.
    init(decoding spans: NameSpans, in bytes: UnsafeBufferPointer<UInt8>) {
        func decode(_ range: Range<Int>) -> String { LaTeX.decode(UnsafeBufferPointer(rebasing: bytes[range])) }
        var first = ""
        if spans.firstIsCommaList {
            var wrotePiece = false
            spans.forEachFirstPiece(in: bytes) { piece in
                if wrotePiece { first += " " }
                first += decode(piece)
                wrotePiece = true
            }
        } else {
            first = decode(spans.first)
        }
        self.init(first: first, von: decode(spans.von), last: decode(spans.last), jr: decode(spans.jr))
    }

    /// The name as cited in lists: the von part and the last name (`van der Aalst`).
    public var shortName: String {
        if von.isEmpty { return last }
        return last.isEmpty ? von : von + " " + last
    }

    /// The whole name in reading order: `Donald E. Knuth`, `Martin Luther King, Jr.`.
    public var fullName: String {
        if first.isEmpty && von.isEmpty && jr.isEmpty { return last }
        var name = ""
        name.reserveCapacity(first.utf8.count + von.utf8.count + last.utf8.count + jr.utf8.count + 4)
        forEachPieceOfFullName { name += $0 }
        return name
    }

    /// Calls `body` with the pieces of `fullName` in order, parts and the separators between them.
    private func forEachPieceOfFullName(_ body: (String) -> Void) {
        var wroteAny = false
        // Not a loop over `[first, von, last]`: that array would cost an allocation per name.
        func put(_ part: String) {
            guard !part.isEmpty else { return }
            if wroteAny { body(" ") }
            body(part)
            wroteAny = true
        }
        put(first)
        put(von)
        put(last)
        if !jr.isEmpty {
            body(", ")
            body(jr)
        }
    }
}

/// A parsed `author` or `editor` field.
public struct NameList: Sendable, Hashable {
    /// The people named, in order (`others` is not among them).
    public let names: [PersonName]
    /// True when the list ends with `and others`.
    public let hasOthers: Bool

    /// Splits a raw (LaTeX) name list.
    public init(raw: String) {
        var raw = raw
        self = raw.withUTF8 { NameList(rawBytes: $0) }
    }

    /// Splits a raw (LaTeX) name list given as UTF-8 bytes.
    public init(rawBytes: UnsafeBufferPointer<UInt8>) {
        let (spans, hasOthers) = NameParser(bytes: rawBytes).parseList()
        names = spans.map { PersonName(decoding: $0, in: rawBytes) }
        self.hasOthers = hasOthers
    }

    /// True when the list names nobody, not even `others`.
    public var isEmpty: Bool { names.isEmpty && !hasOthers }

    /// The short form for lists: `Knuth`, `Knuth & Lamport`, `Knuth, Lamport & Plass`,
    /// `Knuth et al.` (from four names on, or when the list says `and others`).
    public var display: String {
        guard let first = names.first?.shortName else { return hasOthers ? "et al." : "" }
        if hasOthers || names.count >= 4 { return first + " et al." }
        switch names.count {
        case 1: return first
        case 2: return first + " & " + names[1].shortName
        default: return first + ", " + names[1].shortName + " & " + names[2].shortName
        }
    }
}

/// Where the parts of one name lie in the bytes of its list: BibTeX's split, nothing decoded.
///
/// Each part is a range of the list's bytes, empty when the name has no such part. In the rare
/// `von Last, Jr, First, More` form, `first` runs from after the second comma to the end and
/// `firstIsCommaList` is set: each comma-separated piece of it is a first name, and the pieces
/// are joined with spaces.
struct NameSpans {
    var first: Range<Int> = 0..<0
    var von: Range<Int> = 0..<0
    var last: Range<Int> = 0..<0
    var jr: Range<Int> = 0..<0
    var firstIsCommaList = false

    /// Calls `body` with each comma-separated piece of `first` (commas inside braces do not
    /// separate), trimmed.
    func forEachFirstPiece(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        let parser = NameParser(bytes: bytes)
        var depth = 0
        var start = first.lowerBound
        for index in first {
            switch bytes[index] {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"): depth = max(0, depth - 1)
            case UInt8(ascii: ",") where depth == 0:
                body(parser.trim(start..<index))
                start = index + 1
            default: break
            }
        }
        body(parser.trim(start..<first.upperBound))
    }
}

/// An `author` or `editor` list as spans of its raw bytes, split but not decoded, which writes
/// its names decoded straight into a byte buffer: the same text as ``NameList``, with no
/// String made for any part of any name.
///
/// It holds the bytes it was given without owning them: use it only while they live.
public struct NameSpanList {
    /// The raw (LaTeX) bytes of the list.
    private let bytes: UnsafeBufferPointer<UInt8>
    private let spans: [NameSpans]
    /// True when the list ends with `and others`.
    public let hasOthers: Bool
    /// True when the whole list decodes to itself, and so does every part of it (parts start
    /// and end with neither space nor separator, and hold nothing that is not in the list).
    private let isPlain: Bool

    /// Splits the raw (LaTeX) name list in `bytes`, which must outlive the value.
    public init(rawBytes bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        (spans, hasOthers) = NameParser(bytes: bytes).parseList()
        isPlain = LaTeX.isPlain(bytes) && UTF8Validation.firstInvalidOffset(in: bytes) == nil
    }

    /// The number of people named (`others` is not among them).
    public var count: Int { spans.count }

    /// True when the list names nobody, not even `others`.
    public var isEmpty: Bool { spans.isEmpty && !hasOthers }

    /// Appends the UTF-8 of the person's ``PersonName/fullName`` at `index` to `buffer`.
    public func appendFullName(at index: Int, to buffer: inout ByteBuffer) {
        let name = spans[index]
        var wroteAny = false
        appendPart(to: &buffer, after: &wroteAny) { buffer in
            if name.firstIsCommaList {
                var wrotePiece = false
                name.forEachFirstPiece(in: bytes) { piece in
                    if wrotePiece { buffer.append(UInt8(ascii: " ")) }
                    append(piece, to: &buffer)
                    wrotePiece = true
                }
            } else {
                append(name.first, to: &buffer)
            }
        }
        appendPart(to: &buffer, after: &wroteAny) { append(name.von, to: &$0) }
        appendPart(to: &buffer, after: &wroteAny) { append(name.last, to: &$0) }
        let beforeJunior = buffer.count
        buffer.append(UInt8(ascii: ","))
        buffer.append(UInt8(ascii: " "))
        let juniorStart = buffer.count
        append(name.jr, to: &buffer)
        if buffer.count == juniorStart { buffer.truncate(to: beforeJunior) }
    }

    /// Appends the UTF-8 of the list's ``NameList/display`` to `buffer`.
    public func appendDisplay(to buffer: inout ByteBuffer) {
        guard !spans.isEmpty else {
            if hasOthers { buffer.append("et al.") }
            return
        }
        appendShortName(at: 0, to: &buffer)
        if hasOthers || spans.count >= 4 {
            buffer.append(" et al.")
            return
        }
        switch spans.count {
        case 1:
            break
        case 2:
            buffer.append(" & ")
            appendShortName(at: 1, to: &buffer)
        default:
            buffer.append(", ")
            appendShortName(at: 1, to: &buffer)
            buffer.append(" & ")
            appendShortName(at: 2, to: &buffer)
        }
    }

    /// Appends the person's ``PersonName/shortName``: the von part and the last name.
    private func appendShortName(at index: Int, to buffer: inout ByteBuffer) {
        let name = spans[index]
        let start = buffer.count
        append(name.von, to: &buffer)
        if buffer.count == start {
            append(name.last, to: &buffer)
            return
        }
        let beforeLast = buffer.count
        buffer.append(UInt8(ascii: " "))
        append(name.last, to: &buffer)
        if buffer.count == beforeLast + 1 { buffer.truncate(to: beforeLast) }
    }

    /// Appends a part of a whole name written by `write`, with a space before it when a part
    /// came before; a part that decodes to nothing leaves no trace.
    private func appendPart(to buffer: inout ByteBuffer, after wroteAny: inout Bool, _ write: (inout ByteBuffer) -> Void) {
        let mark = buffer.count
        if wroteAny { buffer.append(UInt8(ascii: " ")) }
        let start = buffer.count
        write(&buffer)
        if buffer.count == start {
            buffer.truncate(to: mark)
        } else {
            wroteAny = true
        }
    }

    private func append(_ range: Range<Int>, to buffer: inout ByteBuffer) {
        guard !range.isEmpty else { return }
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        if isPlain {
            buffer.append(part)
        } else {
            LaTeX.appendDecoded(part, to: &buffer)
        }
    }
}

/// BibTeX's name rules over the bytes of a raw name list: where each name's parts are.
struct NameParser {
    let bytes: UnsafeBufferPointer<UInt8>

    func parseList() -> ([NameSpans], Bool) {
        var people: [NameSpans] = []
        // Most lists name one to four people: one allocation, no growing.
        people.reserveCapacity(4)
        var others = false
        forEachName { part in
            let trimmed = trim(part)
            if trimmed.isEmpty { return }
            if isOthers(trimmed) {
                others = true
                return
            }
            people.append(parseName(trimmed))
        }
        return (people, others)
    }

    private func isOthers(_ range: Range<Int>) -> Bool {
        range.count == 6 && zip(range, "others".utf8).allSatisfy { bytes[$0] == $1 }
    }

    /// Calls `body` with each part between the words `and` (any case) that stand between
    /// separators at brace depth 0.
    private func forEachName(_ body: (Range<Int>) -> Void) {
        var depth = 0
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth = max(0, depth - 1)
            } else if depth == 0, isSeparator(byte), index + 4 < count,
                      bytes[index + 1] | 0x20 == UInt8(ascii: "a"), bytes[index + 2] | 0x20 == UInt8(ascii: "n"),
                      bytes[index + 3] | 0x20 == UInt8(ascii: "d"), isSeparator(bytes[index + 4]) {
                body(start..<index)
                start = index + 5
                index = start
                continue
            }
            index += 1
        }
        body(start..<count)
    }

    private func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "~")
    }

    func trim(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSeparator(bytes[lower]) { lower += 1 }
        while upper > lower, isSeparator(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// Where the parts of one name are, in any of BibTeX's three forms.
    private func parseName(_ range: Range<Int>) -> NameSpans {
        let commas = topLevelCommas(in: range)
        guard let firstComma = commas.first else {
            return withWords(of: range) { words in
                guard words.count > 1 else { return NameSpans(last: span(words[...])) }
                // von: from the first lower-case word to the last lower-case word before the last word.
                let body = words.dropLast()
                if let vonStart = body.firstIndex(where: { caseOf($0) == .lower }),
                   let vonEnd = body.lastIndex(where: { caseOf($0) == .lower }) {
                    return NameSpans(first: span(words[..<vonStart]), von: span(words[vonStart...vonEnd]),
                                     last: span(words[(vonEnd + 1)...]))
                }
                return NameSpans(first: span(words.dropLast()), last: span(words.suffix(1)))
            }
        }
        var name = withWords(of: trim(range.lowerBound..<firstComma)) { words in
            var name = NameSpans(last: span(words[...]))
            if words.count > 1, let vonEnd = words.dropLast().lastIndex(where: { caseOf($0) == .lower }) {
                name.von = span(words[...vonEnd])
                name.last = span(words[(vonEnd + 1)...])
            }
            return name
        }
        guard let secondComma = commas.second else {
            name.first = trim((firstComma + 1)..<range.upperBound)
            return name
        }
        name.jr = trim((firstComma + 1)..<secondComma)
        // `von Last, Jr, First`; any further comma separates more first names.
        if commas.more {
            name.first = (secondComma + 1)..<range.upperBound
            name.firstIsCommaList = true
        } else {
            name.first = trim((secondComma + 1)..<range.upperBound)
        }
        return name
    }

    /// Where the first two commas at brace depth 0 are, and whether there are more.
    private func topLevelCommas(in range: Range<Int>) -> (first: Int?, second: Int?, more: Bool) {
        var found: (first: Int?, second: Int?, more: Bool) = (nil, nil, false)
        var depth = 0
        for index in range {
            switch bytes[index] {
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"): depth = max(0, depth - 1)
            case UInt8(ascii: ",") where depth == 0:
                if found.first == nil {
                    found.first = index
                } else if found.second == nil {
                    found.second = index
                } else {
                    found.more = true
                    return found
                }
            default: break
            }
        }
        return found
    }

    /// Calls `body` with the words of `range`: runs separated by white space or `~` outside
    /// braces, kept in scratch memory rather than an array.
    private func withWords<Result>(of range: Range<Int>, _ body: (UnsafeMutableBufferPointer<Range<Int>>) -> Result) -> Result {
        // A word takes at least one byte and a separator, so this many always fit.
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: range.count / 2 + 1) { scratch in
            var count = 0
            var depth = 0
            var start: Int?
            for index in range {
                let byte = bytes[index]
                if byte == UInt8(ascii: "{") { depth += 1 }
                if byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
                // `\~` is an accent, not a tie.
                let escaped = byte == UInt8(ascii: "~") && index > range.lowerBound && bytes[index - 1] == UInt8(ascii: "\\")
                if depth == 0 && isSeparator(byte) && !escaped {
                    if let begun = start {
                        scratch.initializeElement(at: count, to: begun..<index)
                        count += 1
                    }
                    start = nil
                } else if start == nil {
                    start = index
                }
            }
            if let begun = start {
                scratch.initializeElement(at: count, to: begun..<range.upperBound)
                count += 1
            }
            return body(UnsafeMutableBufferPointer(rebasing: scratch[..<count]))
        }
    }

    /// The bytes from the first word's start to the last word's end (empty for no words).
    private func span(_ words: Slice<UnsafeMutableBufferPointer<Range<Int>>>) -> Range<Int> {
        guard let first = words.first, let last = words.last else { return 0..<0 }
        return first.lowerBound..<last.upperBound
    }

    /// The case of a word by BibTeX's rule: its first letter at brace depth 0, or, for a special
    /// character `{\'e}` at the start, the letter inside it; other braced groups have no case.
    private func caseOf(_ word: Range<Int>) -> WordCase {
        var index = word.lowerBound
        let end = word.upperBound
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                if index + 1 < end, bytes[index + 1] == UInt8(ascii: "\\") {
                    return caseOfSpecialCharacter(from: index + 2, end: end)
                }
                var depth = 0
                while index < end {
                    if bytes[index] == UInt8(ascii: "{") { depth += 1 }
                    if bytes[index] == UInt8(ascii: "}") {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    index += 1
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\\") { return caseOfSpecialCharacter(from: index + 1, end: end) }
            if byte >= 0x61 && byte <= 0x7A { return .lower }
            if byte >= 0x41 && byte <= 0x5A { return .upper }
            if byte >= 0xC0 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let character = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<min(end, index + length)]), as: UTF8.self)
                if let scalar = character.unicodeScalars.first {
                    if scalar.properties.isLowercase { return .lower }
                    if scalar.properties.isUppercase { return .upper }
                }
                index += length
                continue
            }
            index += 1
        }
        return .none
    }

    /// After `\`: an accent takes the case of its letter, a letter command (`\oe`, `\AA`) its own.
    private func caseOfSpecialCharacter(from start: Int, end: Int) -> WordCase {
        var index = start
        guard index < end else { return .none }
        let isLetter = { (byte: UInt8) in (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
        if isLetter(bytes[index]) {
            let nameStart = index
            while index < end, isLetter(bytes[index]) { index += 1 }
            let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<index])
            if ControlWordTable.shared.meaning(of: name)?.symbol.exists == true {
                return bytes[nameStart] >= 0x61 ? .lower : .upper
            }
        } else {
            index += 1  // an accent symbol such as \" or \'
        }
        while index < end {
            let byte = bytes[index]
            if byte >= 0x61 && byte <= 0x7A { return .lower }
            if byte >= 0x41 && byte <= 0x5A { return .upper }
            index += 1
        }
        return .none
    }

    enum WordCase { case lower, upper, none }
}
