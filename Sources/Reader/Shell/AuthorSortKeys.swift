import BibModel
import Foundation

/// The sort keys of the sort by author, one per entry: the first creator's last name, first
/// names and von part, each folded and without punctuation (`SortOrder.normalizedName`), then the
/// year; entries with no creators last.
///
/// A name that folds to ASCII (nearly all) is kept as the bytes of its three parts joined by NUL
/// in one buffer and compared with `memcmp`: its parts hold only `a`–`z`, `0`–`9` and single
/// spaces, all above NUL, so the joined bytes compare as the three strings one after another.
/// Any other name keeps its three strings, compared as before (`String`'s `<`).
struct AuthorSortKeys {
    private enum Kind: UInt8 { case ascii, strings, nobody }

    private var kinds: [Kind] = []
    private var years: [Int] = []
    /// Entry `i`'s ASCII key is `bytes[starts[i] ..< starts[i + 1]]` (empty unless `.ascii`).
    private var starts: [Int] = [0]
    private var bytes: [UInt8] = []
    /// The three parts of each `.strings` entry.
    private var strings: [Int: (String, String, String)] = [:]

    init(_ entries: [Entry]) {
        kinds.reserveCapacity(entries.count)
        years.reserveCapacity(entries.count)
        starts.reserveCapacity(entries.count + 1)
        bytes.reserveCapacity(entries.count * 24)
        // Through the buffer: an element read from the array itself is a copy of the entry.
        entries.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                years.append(Self.year(of: entries[index]))
                guard let name = entries[index].firstCreator else {
                    kinds.append(.nobody)
                    starts.append(bytes.count)
                    continue
                }
                let mark = bytes.count
                if appendASCII(name.last), appendSeparator(), appendASCII(name.first), appendSeparator(), appendASCII(name.von) {
                    kinds.append(.ascii)
                } else {
                    bytes.removeSubrange(mark...)
                    kinds.append(.strings)
                    strings[index] = (SortOrder.normalizedName(name.last), SortOrder.normalizedName(name.first),
                                      SortOrder.normalizedName(name.von))
                }
                starts.append(bytes.count)
            }
        }
    }

    /// `entry.year.flatMap { Int($0.prefix(4)) } ?? Int.max`, without making a substring when
    /// the year starts with four ASCII digits and no character continues the fourth.
    private static func year(of entry: Entry) -> Int {
        guard let year = entry.year else { return Int.max }
        let utf8 = year.utf8
        var value = 0
        var index = utf8.startIndex
        for _ in 0..<4 {
            guard index != utf8.endIndex, utf8[index] >= 0x30, utf8[index] <= 0x39 else {
                return Int(year.prefix(4)) ?? Int.max
            }
            value = value * 10 + Int(utf8[index] - 0x30)
            index = utf8.index(after: index)
        }
        // A byte of ASCII after the digits starts a character of its own; anything else might
        // combine with the fourth digit.
        guard index == utf8.endIndex || utf8[index] < 0x80 else { return Int(year.prefix(4)) ?? Int.max }
        return value
    }

    /// The entries' positions in ascending order; ties keep file order.
    ///
    /// The ASCII keys are sorted among themselves (by their first eight bytes, then `memcmp`),
    /// the others among themselves as strings, and the two runs merged: an ASCII key is made a
    /// string only while merging, against a key of the other kind.
    func order() -> [Int] {
        var ascii: [(prefix: UInt64, index: Int)] = []
        var others: [Int] = []
        ascii.reserveCapacity(kinds.count)
        for index in kinds.indices {
            if kinds[index] == .ascii { ascii.append((prefix(of: index), index)) } else { others.append(index) }
        }
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                years.withUnsafeBufferPointer { years in
                    ascii.sort { left, right in
                        if left.prefix != right.prefix { return left.prefix < right.prefix }
                        let names = Self.compareASCII(left.index, right.index, starts: starts, bytes: bytes)
                        if names != 0 { return names < 0 }
                        return years[left.index] != years[right.index] ? years[left.index] < years[right.index] : left.index < right.index
                    }
                }
            }
        }
        // The others' strings, by their place in `others`, then sorted as the strings compare.
        let otherParts = others.map(parts(of:))
        let otherOrder = otherParts.indices.sorted { left, right in
            if otherParts[left] != otherParts[right] { return otherParts[left] < otherParts[right] }
            let (leftIndex, rightIndex) = (others[left], others[right])
            return years[leftIndex] != years[rightIndex] ? years[leftIndex] < years[rightIndex] : leftIndex < rightIndex
        }
        var order: [Int] = []
        order.reserveCapacity(kinds.count)
        var nextASCII = 0
        var nextOther = 0
        while nextASCII < ascii.count, nextOther < otherOrder.count {
            let left = ascii[nextASCII].index
            let right = others[otherOrder[nextOther]]
            if asciiSortsFirst(left, before: right, parts: otherParts[otherOrder[nextOther]]) {
                order.append(left)
                nextASCII += 1
            } else {
                order.append(right)
                nextOther += 1
            }
        }
        order.append(contentsOf: ascii[nextASCII...].lazy.map(\.index))
        order.append(contentsOf: otherOrder[nextOther...].lazy.map { others[$0] })
        return order
    }

    /// Whether ASCII key `left` sorts before `right`, an entry with another key whose strings
    /// are `parts`: the strings compared as the straightforward sort does, each part of the
    /// ASCII key made only when the parts before it are equal.
    private func asciiSortsFirst(_ left: Int, before right: Int, parts: (String, String, String)) -> Bool {
        // `"\u{10FFFF}"`, the last name of nobody, sorts after any ASCII last name.
        if kinds[right] == .nobody { return true }
        let last = asciiPart(of: left, number: 0)
        if last != parts.0 { return last < parts.0 }
        let first = asciiPart(of: left, number: 1)
        if first != parts.1 { return first < parts.1 }
        let von = asciiPart(of: left, number: 2)
        if von != parts.2 { return von < parts.2 }
        return years[left] != years[right] ? years[left] < years[right] : left < right
    }

    /// Part `number` (0: last, 1: first, 2: von) of ASCII key `index`, as a string.
    private func asciiPart(of index: Int, number: Int) -> String {
        var start = starts[index]
        let end = starts[index + 1]
        for _ in 0..<number {
            while start < end, bytes[start] != 0 { start += 1 }
            start += 1
        }
        var stop = start
        while stop < end, bytes[stop] != 0 { stop += 1 }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<stop]), as: UTF8.self) }
    }

    /// The first eight bytes of an ASCII key, big-endian, zeros after its end: keys whose
    /// prefixes differ compare as their prefixes do (a key that ends within eight bytes is a
    /// prefix of the other where they differ by the zeros).
    private func prefix(of index: Int) -> UInt64 {
        var value: UInt64 = 0
        let start = starts[index]
        let end = starts[index + 1]
        for offset in 0..<8 {
            value <<= 8
            if start + offset < end { value |= UInt64(bytes[start + offset]) }
        }
        return value
    }

    /// Negative, zero or positive as ASCII key `left` sorts before, with or after `right`.
    private static func compareASCII(_ left: Int, _ right: Int, starts: UnsafeBufferPointer<Int>,
                                     bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let leftStart = starts[left], leftCount = starts[left + 1] - leftStart
        let rightStart = starts[right], rightCount = starts[right + 1] - rightStart
        let common = min(leftCount, rightCount)
        if common > 0, let base = bytes.baseAddress {
            let order = memcmp(base + leftStart, base + rightStart, common)
            if order != 0 { return Int(order) }
        }
        return leftCount - rightCount
    }

    /// Entry `index`'s key as three strings, as the straightforward sort compares them.
    private func parts(of index: Int) -> (String, String, String) {
        switch kinds[index] {
        case .nobody:
            return ("\u{10FFFF}", "", "")
        case .strings:
            return strings[index] ?? ("", "", "")
        case .ascii:
            return (asciiPart(of: index, number: 0), asciiPart(of: index, number: 1), asciiPart(of: index, number: 2))
        }
    }

    /// Appends `SortOrder.normalizedName(part)` when it is ASCII: when `part` is (folding is
    /// then lower case only), or when its folded form is (`Gödel` is `godel`). Letters and
    /// digits are then the bytes that are neither, so the name is the runs of letters and
    /// digits, one space between them. False, having appended some, otherwise.
    private mutating func appendASCII(_ part: String) -> Bool {
        var part = part
        let mark = bytes.count
        if let appended = part.withUTF8({ appendNormalized($0, lowercasing: true) }) { return appended }
        bytes.removeSubrange(mark...)
        var folded = Folding.fold(part)
        return folded.withUTF8 { appendNormalized($0, lowercasing: false) } ?? false
    }

    /// Appends the runs of ASCII letters and digits of `utf8` (lower-cased when `lowercasing`),
    /// one space between them; nil, having appended some, when it holds a byte that is not ASCII.
    private mutating func appendNormalized(_ utf8: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> Bool? {
        var pendingSpace = false
        var wroteAny = false
        for byte in utf8 {
            if byte >= 0x80 { return nil }
            let letter = lowercasing && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            let lower = letter | 0x20
            if (lower >= 0x61 && lower <= 0x7A) || (letter >= 0x30 && letter <= 0x39) {
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(letter)
                wroteAny = true
            } else if wroteAny {
                pendingSpace = true
            }
        }
        return true
    }

    private mutating func appendSeparator() -> Bool {
        bytes.append(0)
        return true
    }
}
