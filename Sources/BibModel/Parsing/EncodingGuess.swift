/// Chooses the encoding of a file that is not UTF-8 and declares none, from its bytes.
///
/// The candidates are the 8-bit encodings such files are found in: Windows-1252 (Western, a
/// superset of Latin-1's letters), ISO-8859-2 (Central European), Windows-1251 and KOI8-R
/// (Cyrillic). Each is scored over the bytes of 0x80 or more, as each decodes them, by how
/// words in that script look:
/// - a Latin letter next to an ASCII letter: +1 (`Gödel`); a Cyrillic letter next to one: −1;
/// - a Cyrillic letter next to another Cyrillic letter: +1 (`Андреев`); a Latin letter next
///   to another non-ASCII letter: 0 (Western words rarely chain accented letters);
/// - a Cyrillic capital right after a letter: −2 (the other Cyrillic encoding swaps the cases:
///   `аНДРЕЕВ`);
/// - a control character (ISO-8859-2's 0x80–0x9F): −2; a symbol next to a letter (`³`, `¶`
///   where ISO-8859-2 has `ł`, `ś`): −1.
/// The highest score wins; ties go to the earlier candidate. Windows-1252 is the default: another
/// candidate must score above zero and at least `margin` above it, in a file with at least
/// `minimumEvidence` bytes of 0x80 or more (a stray byte or two is no evidence of Cyrillic).
enum EncodingGuess {
    static let candidates: [TextEncoding] = [.windows1252, .latin2, .windows1251, .koi8r]
    /// How much better than Windows-1252 another candidate must fit.
    static let margin = 3
    /// How many bytes of 0x80 or more it takes to leave Windows-1252 (a short name: `Андреев`).
    static let minimumEvidence = 6

    /// The candidate that fits `bytes` best.
    static func bestFit(for bytes: UnsafeBufferPointer<UInt8>) -> TextEncoding {
        var best = candidates[0]
        guard bytes.lazy.filter({ $0 >= 0x80 }).count >= minimumEvidence else { return best }
        var bestScore = max(0, score(bytes, as: CharacterClasses.of(best)) + margin - 1)
        for candidate in candidates.dropFirst() {
            let score = self.score(bytes, as: CharacterClasses.of(candidate))
            if score > bestScore {
                best = candidate
                bestScore = score
            }
        }
        return best
    }

    /// What one byte of 0x80 or more is, in one encoding.
    struct Class: Equatable {
        var isLetter = false
        var isCyrillic = false
        var isUppercase = false
        var isControl = false
    }

    /// The class of each byte from 0x80 to 0xFF in an encoding.
    struct CharacterClasses {
        let classes: [Class]

        static func of(_ encoding: TextEncoding) -> CharacterClasses {
            CharacterClasses(classes: (0x80...0xFF).map { byte in
                guard let scalar = Unicode.Scalar(encoding.scalar(of: UInt8(byte))) else { return Class(isControl: true) }
                let properties = scalar.properties
                return Class(isLetter: properties.isAlphabetic,
                             isCyrillic: (0x400...0x4FF).contains(scalar.value),
                             isUppercase: properties.isUppercase,
                             isControl: properties.generalCategory == .control)
            })
        }

        subscript(byte: UInt8) -> Class { classes[Int(byte) - 0x80] }
    }

    static func score(_ bytes: UnsafeBufferPointer<UInt8>, as classes: CharacterClasses) -> Int {
        func isASCIILetter(_ byte: UInt8) -> Bool { byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A }
        func isLetter(_ byte: UInt8) -> Bool { byte >= 0x80 ? classes[byte].isLetter : isASCIILetter(byte) }
        var score = 0
        for index in bytes.indices where bytes[index] >= 0x80 {
            let this = classes[bytes[index]]
            // Two plain values, not an array: this runs for every byte of 0x80 or more, once
            // per candidate.
            let before: UInt8 = index > 0 ? bytes[index - 1] : 0x20
            let after: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0x20
            if this.isControl {
                score -= 2
            } else if this.isLetter {
                func fit(_ neighbour: UInt8) -> Int {
                    if isASCIILetter(neighbour) { return this.isCyrillic ? -1 : 1 }
                    return neighbour >= 0x80 && this.isCyrillic && classes[neighbour].isCyrillic ? 1 : 0
                }
                score += fit(before) + fit(after)
                if this.isCyrillic, this.isUppercase, isLetter(before) { score -= 2 }
            } else if isLetter(before) || isLetter(after) {
                score -= 1
            }
        }
        return score
    }
}
