import Foundation

/// The letters and digits of a text, folded, for telling which pages cannot hold a search of
/// the reading view (`ReadingText.occurrences`) without reading them from the PDF: the text the
/// full-text index keeps of a page (reading order, hyphenated words joined) and the lines the
/// reading view shows (reflowed, wrapped) are made from the same characters of the page, and
/// differ in spaces, line breaks, hyphens and ligatures, which a skeleton leaves out or spells
/// out. A page whose skeleton lacks a piece of the query's skeleton has no match; a page that
/// has them all may (the search then reads it as before), so the pages found are the same.
public enum SearchSkeleton {
    /// The query's pieces, each a run of ASCII letters and digits in lower case, or nil when
    /// the query cannot be told by skeletons: it holds a character outside ASCII (whose folding
    /// the skeleton does not follow) or no letter or digit at all.
    public static func pieces(of query: String) -> [[UInt8]]? {
        var pieces: [[UInt8]] = []
        var current: [UInt8] = []
        for byte in query.utf8 {
            guard byte < 0x80 else { return nil }
            if let folded = folded(byte) {
                current.append(folded)
            } else if !current.isEmpty {
                pieces.append(current)
                current = []
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces.isEmpty ? nil : pieces
    }

    /// The skeleton of `text`: its ASCII letters and digits in lower case, and for every other
    /// character the ASCII letters and digits of its folding without case and accents (the
    /// folding `ReadingText.matches` compares by: `é` gives `e`, `ß` gives `ss`, a ligature its
    /// letters), in order; everything else left out. `folder` keeps the foldings of characters
    /// outside ASCII from one text to the next.
    public static func of(_ text: String, folder: inout Folder) -> [UInt8] {
        var skeleton: [UInt8] = []
        skeleton.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                if let byte = folded(UInt8(scalar.value)) { skeleton.append(byte) }
            } else {
                skeleton += folder.fold(scalar)
            }
        }
        return skeleton
    }

    /// Whether `skeleton` holds every piece of a query (`pieces(of:)`): false means that no
    /// line the reading view shows for the page can match the query.
    public static func mayMatch(_ skeleton: [UInt8], pieces: [[UInt8]]) -> Bool {
        pieces.allSatisfy { contains(skeleton, $0) }
    }

    /// The foldings of the characters outside ASCII met so far.
    public struct Folder: Sendable {
        private var known: [Unicode.Scalar: [UInt8]] = [:]

        public init() {}

        mutating func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
            if let folded = known[scalar] { return folded }
            let spelled = String(Character(scalar)).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            // Each ligature's letters as the reading view spells them, whatever the folding does.
            let text = ReadingText.ligatures[Character(scalar)] ?? spelled
            let folded = text.utf8.compactMap { $0 < 0x80 ? SearchSkeleton.folded($0) : nil }
            known[scalar] = folded
            return folded
        }
    }

    /// An ASCII letter or digit in lower case; nil for any other byte.
    private static func folded(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return byte
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte | 0x20
        default: return nil
        }
    }

    /// Whether `needle` occurs in `haystack` (the first byte found, then the rest compared).
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let last = haystack.count - needle.count
        guard last >= 0 else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var start = 0
                while start <= last {
                    if hay[start] == first {
                        var offset = 1
                        while offset < pin.count, hay[start + offset] == pin[offset] { offset += 1 }
                        if offset == pin.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
