/// Checks that bytes are well-formed UTF-8: before a reader decodes them (FoundationXML's
/// parser crashes on some invalid UTF-8, so no XML reaches it unchecked), and to tell a UTF-8
/// .bib file from a Windows-1252 one.
public enum UTF8Validation {
    /// The index of the first byte that breaks UTF-8 (overlong forms and surrogates included),
    /// or nil when all of `bytes` is valid.
    public static func firstInvalidByte(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }.map { bytes.startIndex + $0 }
    }

    /// The offset of the first byte that breaks UTF-8, or nil; ASCII 32 bytes at a time, then
    /// eight, then up to the first byte that is not ASCII.
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = 0
        guard let base = bytes.baseAddress else { return nil }
        while index < count {
            if index + 32 <= count {
                let raw = UnsafeRawPointer(base + index)
                let any = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                if any & 0x8080_8080_8080_8080 == 0 {
                    index += 32
                    continue
                }
            }
            if index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let high = word & 0x8080_8080_8080_8080
                if high == 0 {
                    index += 8
                    continue
                }
                // Straight to the first byte of the word that is not ASCII: the bytes before
                // it would each cost the 32- and 8-byte looks again.
                index += high.trailingZeroBitCount >> 3
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            let minimum: UInt32
            switch lead {
            case 0xC2...0xDF: length = 2; minimum = 0x80
            case 0xE0...0xEF: length = 3; minimum = 0x800
            case 0xF0...0xF4: length = 4; minimum = 0x10000
            default: return index
            }
            guard count - index >= length else { return index }
            var scalar = UInt32(lead) & (0xFF >> (length + 1))
            for offset in 1..<length {
                let continuation = base[index + offset]
                guard continuation & 0xC0 == 0x80 else { return index }
                scalar = scalar << 6 | UInt32(continuation & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
            index += length
        }
        return nil
    }
}
