import Foundation

/// The words of folded text: runs of letters and digits of any script (so `c++` is `c`,
/// `o'brien` is `o` and `brien`, and `日本語` is one word). Query and index split the same way.
public enum FoldedWords {
    /// The words of folded text, as strings.
    public static func of(_ folded: String) -> [String] {
        var words: [String] = []
        var text = folded
        text.withUTF8 { bytes in
            forEachWord(in: bytes) { words.append(String(decoding: $0, as: UTF8.self)) }
        }
        return words
    }

    /// True when a word of folded text starts with `prefix` (as `String.hasPrefix` says).
    static func contains(prefix: String, in folded: String) -> Bool {
        var text = folded
        var prefixBytes = prefix
        return prefixBytes.withUTF8 { wanted in
            let asciiPrefix = !wanted.contains { $0 >= 0x80 }
            return text.withUTF8 { bytes in
                containsWord(in: bytes) { word in
                    if asciiPrefix, !word.contains(where: { $0 >= 0x80 }) {
                        // ASCII against ASCII: a byte is a character.
                        return word.count >= wanted.count && UnsafeBufferPointer(rebasing: word[..<wanted.count]).elementsEqual(wanted)
                    }
                    return String(decoding: word, as: UTF8.self).hasPrefix(prefix)
                }
            }
        }
    }

    /// Calls `body` with the bytes of each word of folded UTF-8 text, without copying.
    static func forEachWord(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        _ = containsWord(in: text) { word in
            body(word)
            return false
        }
    }

    /// True when `predicate` holds for a word of folded UTF-8 text (asked of each word in
    /// order, until it holds).
    static func containsWord(in text: UnsafeBufferPointer<UInt8>, where predicate: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var position = 0
        let count = text.count
        while position < count {
            let length = wordScalarLength(text, position)
            if length <= 0 {
                position += length == 0 ? 1 : -length
                continue
            }
            let start = position
            position += length
            while position < count {
                let next = wordScalarLength(text, position)
                if next <= 0 { break }
                position += next
            }
            if predicate(UnsafeBufferPointer(rebasing: text[start..<position])) { return true }
        }
        return false
    }

    /// The byte length of the scalar at `index` when it is a letter or digit; otherwise 0 for
    /// an ASCII byte, or minus its length.
    @inline(__always) static func wordScalarLength(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let byte = text[index]
        if byte < 0x80 {
            let isWord = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
            return isWord ? 1 : 0
        }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= text.count else { return -1 }
        var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<Swift.max(1, length) { value = value << 6 | UInt32(text[index + offset] & 0x3F) }
        guard length > 1, let scalar = Unicode.Scalar(value) else { return -length }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark ? length : -length
    }
}
