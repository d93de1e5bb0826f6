import Foundation
import PropertyList

/// arXiv's identifiers.
enum ArXiv {
    /// True for an arXiv identifier of either scheme, with an optional version: `2309.06784`,
    /// `0704.0001v2` (new: four digits, a dot, four or five digits), `math/0211159`,
    /// `math.AG/0211159v1` (old: an archive, perhaps a subject class, a slash, seven digits).
    /// The same strings as `^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$` with ASCII
    /// digits, read byte by byte.
    static func isIdentifier(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            /// Skips up to `most` digits; true when at least `least` were there.
            func digits(least: Int, most: Int) -> Bool {
                let start = index
                while index < bytes.count, index - start < most, isDigit(bytes[index]) { index += 1 }
                return index - start >= least
            }
            if let first = bytes.first, isDigit(first) {
                guard digits(least: 4, most: 4), index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return false }
                index += 1
                guard digits(least: 4, most: 5) else { return false }
            } else {
                let archiveStart = index
                while index < bytes.count, (bytes[index] >= 0x61 && bytes[index] <= 0x7A) || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index > archiveStart, index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ".") {
                    guard index + 2 < bytes.count, (0x41...0x5A).contains(bytes[index + 1]),
                          (0x41...0x5A).contains(bytes[index + 2]) else { return false }
                    index += 3
                }
                guard index < bytes.count, bytes[index] == UInt8(ascii: "/") else { return false }
                index += 1
                guard digits(least: 7, most: 7) else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "v") {
                index += 1
                guard digits(least: 1, most: Int.max) else { return false }
            }
            return index == bytes.count
        }
    }
}
