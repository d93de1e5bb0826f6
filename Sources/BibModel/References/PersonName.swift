import Foundation

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

    /// The name as cited in lists: the von part and the last name (`van der Aalst`).
    public var shortName: String { [von, last].filter { !$0.isEmpty }.joined(separator: " ") }

    /// The whole name in reading order: `Donald E. Knuth`, `Martin Luther King, Jr.`.
    public var fullName: String {
        let main = [first, von, last].filter { !$0.isEmpty }.joined(separator: " ")
        return jr.isEmpty ? main : "\(main), \(jr)"
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
        var people: [PersonName] = []
        var others = false
        for part in NameList.splitOnAnd(raw) {
            let trimmed = part.trimmedASCII
            if trimmed.isEmpty { continue }
            if trimmed == "others" {
                others = true
                continue
            }
            people.append(NameList.parseName(trimmed))
        }
        names = people
        hasOthers = others
    }

    /// True when the list names nobody, not even `others`.
    public var isEmpty: Bool { names.isEmpty && !hasOthers }

    /// The short form for lists: `Knuth`, `Knuth & Lamport`, `Knuth, Lamport & Plass`,
    /// `Knuth et al.` (from four names on, or when the list says `and others`).
    public var display: String {
        let short = names.map(\.shortName)
        guard let first = short.first else { return hasOthers ? "et al." : "" }
        if hasOthers || short.count >= 4 { return "\(first) et al." }
        switch short.count {
        case 1: return first
        case 2: return "\(short[0]) & \(short[1])"
        default: return "\(short[0]), \(short[1]) & \(short[2])"
        }
    }

    // MARK: - Splitting

    /// Splits on the word `and` (any case) at brace depth 0.
    static func splitOnAnd(_ raw: String) -> [String] {
        let bytes = Array(raw.utf8)
        var parts: [String] = []
        var depth = 0
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth = max(0, depth - 1)
            } else if depth == 0, isSeparator(byte), index + 4 < bytes.count,
                      bytes[index + 1] | 0x20 == UInt8(ascii: "a"), bytes[index + 2] | 0x20 == UInt8(ascii: "n"),
                      bytes[index + 3] | 0x20 == UInt8(ascii: "d"), isSeparator(bytes[index + 4]) {
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
                start = index + 5
                index = start
                continue
            }
            index += 1
        }
        parts.append(String(decoding: bytes[start...], as: UTF8.self))
        return parts
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: "~")
    }

    /// Parses one name in any of BibTeX's three forms.
    static func parseName(_ raw: String) -> PersonName {
        let commaParts = splitTopLevel(raw, on: UInt8(ascii: ","))
            .map { $0.trimmedASCII }
        switch commaParts.count {
        case 1:
            let words = words(of: commaParts[0])
            guard words.count > 1 else { return PersonName(last: decode(words)) }
            // von: from the first lower-case word to the last lower-case word before the last word.
            let body = words.dropLast()
            if let vonStart = body.firstIndex(where: { caseOf($0) == .lower }),
               let vonEnd = body.lastIndex(where: { caseOf($0) == .lower }) {
                return PersonName(first: decode(Array(words[..<vonStart])),
                                  von: decode(Array(words[vonStart...vonEnd])),
                                  last: decode(Array(words[(vonEnd + 1)...])))
            }
            return PersonName(first: decode(Array(words.dropLast())), last: decode([words[words.count - 1]]))
        default:
            let (von, last) = splitVonLast(words(of: commaParts[0]))
            let jr = commaParts.count >= 3 ? commaParts[1] : ""
            let first = commaParts.count >= 3 ? commaParts[2...].joined(separator: " ") : commaParts[1]
            return PersonName(first: LaTeX.decode(first), von: von, last: last, jr: LaTeX.decode(jr))
        }
    }

    /// In `von Last`, the von part is every word up to the last lower-case one (the last word
    /// always belongs to Last).
    private static func splitVonLast(_ words: [String]) -> (von: String, last: String) {
        guard words.count > 1 else { return ("", decode(words)) }
        let body = words.dropLast()
        guard let vonEnd = body.lastIndex(where: { caseOf($0) == .lower }) else { return ("", decode(words)) }
        return (decode(Array(words[...vonEnd])), decode(Array(words[(vonEnd + 1)...])))
    }

    private static func decode(_ words: [String]) -> String {
        LaTeX.decode(words.joined(separator: " "))
    }

    /// Splits at `separator` outside braces.
    static func splitTopLevel(_ raw: String, on separator: UInt8) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var depth = 0
        for byte in raw.utf8 {
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
            if byte == separator && depth == 0 {
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        return parts
    }

    /// Words separated by white space or `~` outside braces.
    private static func words(of raw: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var depth = 0
        for byte in raw.utf8 {
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
            if depth == 0 && isSeparator(byte) {
                if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    enum WordCase { case lower, upper, none }

    /// The case of a word by BibTeX's rule: its first letter at brace depth 0, or, for a special
    /// character `{\'e}` at the start, the letter inside it; other braced groups have no case.
    static func caseOf(_ word: String) -> WordCase {
        let bytes = Array(word.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                    return caseOfSpecialCharacter(bytes, from: index + 2)
                }
                // A braced group: skip it, it has no case.
                var depth = 0
                while index < bytes.count {
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
            if byte == UInt8(ascii: "\\") {
                return caseOfSpecialCharacter(bytes, from: index + 1)
            }
            if byte >= 0x61 && byte <= 0x7A { return .lower }
            if byte >= 0x41 && byte <= 0x5A { return .upper }
            if byte >= 0x80 {
                let rest = String(decoding: bytes[index...], as: UTF8.self)
                if let character = rest.first {
                    if character.isLowercase { return .lower }
                    if character.isUppercase { return .upper }
                }
                index += rest.first.map { String($0).utf8.count } ?? 1
                continue
            }
            index += 1
        }
        return .none
    }

    /// After `\`: an accent takes the case of its letter, a letter command (`\oe`, `\AA`) its own.
    private static func caseOfSpecialCharacter(_ bytes: [UInt8], from start: Int) -> WordCase {
        var index = start
        guard index < bytes.count else { return .none }
        let isLetter = { (byte: UInt8) in (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) }
        if isLetter(bytes[index]) {
            let nameStart = index
            while index < bytes.count, isLetter(bytes[index]) { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            if LaTeXTables.symbols[name] != nil {
                return bytes[nameStart] >= 0x61 ? .lower : .upper
            }
        } else {
            index += 1  // an accent symbol such as \" or \'
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x61 && byte <= 0x7A { return .lower }
            if byte >= 0x41 && byte <= 0x5A { return .upper }
            index += 1
        }
        return .none
    }
}
