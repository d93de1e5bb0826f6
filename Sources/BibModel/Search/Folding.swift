import Foundation

/// Folds text for searching: lower case, no diacritics, special letters spelled out
/// (`Gödel` → `godel`, `Straße` → `strasse`, `Łukasiewicz` → `lukasiewicz`).
public enum Folding {
    /// The folded form of decoded (Unicode) text.
    public static func fold(_ text: String) -> String {
        var ascii = true
        var hasUpper = false
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
        }
        if ascii {
            guard hasUpper else { return text }
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        // Built as bytes: appending to a `String.UnicodeScalarView` copies it, which made
        // folding a long value take time growing with the square of its length.
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                result.append(UInt8(value >= 0x41 && value <= 0x5A ? value | 0x20 : value))
            } else {
                result.append(contentsOf: folded(scalar).utf8)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// One non-ASCII scalar folded; computed once per scalar and remembered.
    private static func folded(_ scalar: Unicode.Scalar) -> String {
        if let known = cache.withLock({ $0[scalar] }) { return known }
        let result: String
        if let special = specialLetters[scalar] {
            result = special
        } else {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark:
                result = ""
            default:
                let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                    .filter { $0.properties.generalCategory != .nonspacingMark }
                result = String(String.UnicodeScalarView(decomposed)).lowercased()
            }
        }
        cache.withLock { $0[scalar] = result }
        return result
    }

    private static let cache = LockedValue<[Unicode.Scalar: String]>([:])

    /// Letters that do not decompose but have a plain spelling.
    private static let specialLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
        "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
        "ı": "i", "ȷ": "j", "ŋ": "n", "Ŋ": "n", "\u{00A0}": " ", "–": "-", "—": "-",
        "‘": "'", "’": "'", "“": "\"", "”": "\"",
    ]
}
