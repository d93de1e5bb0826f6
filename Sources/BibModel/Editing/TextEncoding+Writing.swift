import Foundation

extension TextEncoding {
    /// `text` in this encoding, or the first character it cannot hold.
    func encode(_ text: String) -> Result<[UInt8], UnencodableCharacter> {
        if self == .utf8 { return .success(Array(text.utf8)) }
        let table = TextEncoding.inverseTables[self] ?? [:]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                bytes.append(UInt8(scalar.value))
            } else if let byte = table[scalar.value] {
                bytes.append(byte)
            } else {
                return .failure(UnencodableCharacter(scalar: scalar))
            }
        }
        return .success(bytes)
    }

    /// For each single-byte encoding, the byte of each scalar it holds from 0x80 up.
    private static let inverseTables: [TextEncoding: [UInt32: UInt8]] = {
        var tables: [TextEncoding: [UInt32: UInt8]] = [:]
        for encoding in [TextEncoding.windows1252, .latin1, .macRoman, .latin9, .latin2, .windows1251, .koi8r] {
            var table: [UInt32: UInt8] = [:]
            for byte in UInt8(0x80)...UInt8(0xFF) where table[encoding.scalar(of: byte)] == nil {
                table[encoding.scalar(of: byte)] = byte
            }
            tables[encoding] = table
        }
        return tables
    }()
}

/// A character an encoding cannot hold.
struct UnencodableCharacter: Error {
    let scalar: Unicode.Scalar

    /// The character and its code point, for messages: `'李' (U+674E)`.
    var described: String {
        let isVisible = !TerminalText.isControl(scalar)
        return (isVisible ? "'\(Character(scalar))' " : "") + String(format: "(U+%04X)", scalar.value)
    }
}
