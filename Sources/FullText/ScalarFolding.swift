import Foundation

/// How one non-ASCII scalar folds, as BibModel's `Folding.fold` then `FoldedWords` treat it
/// (FullText does not depend on BibModel, so the rules are repeated here; keep them in step).
enum ScalarFolding {
    /// The folded UTF-8 of `scalar`, with 0x20 for each folded scalar that is not part of a word
    /// (not a letter, digit or combining mark); empty when it folds away (a combining accent).
    static func foldedBytes(_ scalar: Unicode.Scalar) -> [UInt8] {
        var bytes: [UInt8] = []
        for folded in folded(scalar).unicodeScalars {
            if folded.isASCII {
                let value = UInt8(folded.value)
                switch value {
                case 0x61...0x7A, 0x30...0x39: bytes.append(value)
                case 0x41...0x5A: bytes.append(value | 0x20)
                default: bytes.append(0x20)
                }
            } else if isWordScalar(folded) {
                bytes.append(contentsOf: String(folded).utf8)
            } else {
                bytes.append(0x20)
            }
        }
        return bytes
    }

    /// `Folding`'s rule: special letters spelled out, marks dropped, otherwise the canonical
    /// decomposition without its nonspacing marks, lower-cased. Ligatures are spelled out too.
    private static func folded(_ scalar: Unicode.Scalar) -> String {
        if let special = specialLetters[scalar] { return special }
        if let ligature = PageTextNormalizer.ligatures[scalar] { return ligature }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark:
            return ""
        default:
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                .filter { $0.properties.generalCategory != .nonspacingMark }
            return String(String.UnicodeScalarView(decomposed)).lowercased()
        }
    }

    /// `FoldedWords`' rule for a non-ASCII scalar: letters, digits and nonspacing marks.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
    }

    /// Letters that do not decompose but have a plain spelling (as in `Folding`).
    private static let specialLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
        "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
        "ı": "i", "ȷ": "j", "ŋ": "n", "Ŋ": "n", "\u{00A0}": " ", "–": "-", "—": "-",
        "‘": "'", "’": "'", "“": "\"", "”": "\"",
    ]
}
