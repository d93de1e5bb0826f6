import Foundation
import PropertyList

/// BibTeX's name rules over the bytes of a raw name list: where each name's parts are.
struct NameParser {
    let bytes: UnsafeBufferPointer<UInt8>

    func parseList() -> ([NameSpans], Bool) {
        var people: [NameSpans] = []
        // Most lists name one to four people: one allocation, no growing.
        people.reserveCapacity(4)
        let others = forEachPerson { person in
            people.append(person)
            return true
        }
        return (people, others)
    }

    /// The first person of the list (the first of `parseList()`'s names), the rest not split;
    /// when the list names nobody, whether it says `others`.
    func parseFirst() -> (first: NameSpans?, hasOthers: Bool) {
        var first: NameSpans?
        let others = forEachPerson { person in
            first = person
            return false
        }
        return (first, others)
    }

    /// Calls `body` with each person named, in order, until it returns false; true when the
    /// parts read by then include `others`.
    private func forEachPerson(_ body: (NameSpans) -> Bool) -> Bool {
        var others = false
        forEachName { part in
            let trimmed = trim(part)
            if trimmed.isEmpty { return true }
            if isOthers(trimmed) {
                others = true
                return true
            }
            return body(parseName(trimmed))
        }
        return others
    }

    private func isOthers(_ range: Range<Int>) -> Bool {
        range.count == 6 && zip(range, "others".utf8).allSatisfy { bytes[$0] == $1 }
    }

    /// Calls `body` with each part between the words `and` (any case) that stand between
    /// separators at brace depth 0, until it returns false.
    private func forEachName(_ body: (Range<Int>) -> Bool) {
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
                guard body(start..<index) else { return }
                start = index + 5
                index = start
                continue
            }
            index += 1
        }
        _ = body(start..<count)
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
