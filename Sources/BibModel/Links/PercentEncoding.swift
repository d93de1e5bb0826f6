/// Percent-encoding of keys and library names in `bibread://open` links (RFC 3986 style, UTF-8).
enum PercentEncoding {
    /// The ASCII characters written as they are: RFC 3986's unreserved characters and `! $ * ; @`.
    ///
    /// Everything else is escaped: the link's structure (`[ ] , : & = #`), `%`, `?`, `+`, `/`,
    /// white space, quotes and parentheses, controls and all non-ASCII text.
    private static func isLiteral(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "-", ".", "_", "~", "!", "$", "*", ";", "@": return true
        default: return false
        }
    }

    /// `text` with every character that is not literal in a link written as `%XX` escapes of its UTF-8 bytes.
    static func encode(_ text: String) -> String {
        var encoded = ""
        encoded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isLiteral(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 {
                    encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
                }
            }
        }
        return encoded
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    /// Decodes the `%XX` escapes in `text[range]`; each scalar keeps the column it came from.
    ///
    /// Throws at the `%` of an escape that is not followed by two hex digits, and at the first
    /// escape of a byte sequence that is not UTF-8.
    static func decode(_ text: ScannedText, _ range: Range<Int>) throws -> DecodedText {
        var decoded = DecodedText()
        var bytes: [UInt8] = []
        var byteColumns: [Int] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let character = text[index]
            guard character == "%" else {
                try flush(&bytes, &byteColumns, into: &decoded)
                for scalar in character.unicodeScalars { decoded.append(scalar, column: text.column(index)) }
                index += 1
                continue
            }
            guard index + 2 < range.upperBound,
                  let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) else {
                let shown = text.quoted(index..<min(index + 3, range.upperBound))
                throw text.error("bad percent escape \(shown): '%' is followed by two hex digits (write '%' itself as %25)", at: index)
            }
            bytes.append(UInt8(high << 4 | low))
            byteColumns.append(text.column(index))
            index += 3
        }
        try flush(&bytes, &byteColumns, into: &decoded)
        return decoded
    }

    /// The value of an ASCII hex digit.
    private static func hexValue(_ character: Character) -> Int? {
        guard character.isASCII else { return nil }
        return character.hexDigitValue
    }

    /// Decodes pending escaped bytes as UTF-8 and appends their scalars.
    private static func flush(_ bytes: inout [UInt8], _ columns: inout [Int], into decoded: inout DecodedText) throws {
        guard !bytes.isEmpty else { return }
        defer {
            bytes.removeAll(keepingCapacity: true)
            columns.removeAll(keepingCapacity: true)
        }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8()
        var consumed = 0
        while true {
            switch parser.decode(&iterator) {
            case .scalarValue(let scalar):
                decoded.append(scalar, column: columns[consumed])
                consumed += UTF8.width(scalar)
            case .emptyInput:
                return
            case .error:
                throw ReferenceLinkError(message: "percent escapes that are not UTF-8 text", column: columns[consumed])
            }
        }
    }
}
