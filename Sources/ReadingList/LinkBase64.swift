import PropertyList

/// Base64 for links: strict on output (standard alphabet, padded, percent-encoded where a URL
/// needs it) and forgiving on input, where links have been through mail and forms.
enum LinkBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 with padding, with `+`, `/` and `=` percent-encoded.
    static func encodeForLink(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4 + 16)
        func append(_ symbol: UInt8) {
            switch symbol {
            case UInt8(ascii: "+"): output += Array("%2B".utf8)
            case UInt8(ascii: "/"): output += Array("%2F".utf8)
            case UInt8(ascii: "="): output += Array("%3D".utf8)
            default: output.append(symbol)
            }
        }
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0..<4 {
                if position <= count {
                    append(alphabet[Int(group >> UInt32(18 - 6 * position) & 0x3F)])
                } else {
                    append(UInt8(ascii: "="))
                }
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    // Codes in `table` besides the 64 symbol values.
    private static let percent: UInt8 = 64
    private static let space: UInt8 = 65
    private static let lineBreak: UInt8 = 66
    private static let pad: UInt8 = 67
    private static let invalid: UInt8 = 255

    /// What each byte means in a link's data: a symbol value (0–63, both alphabets), or one of
    /// the codes above.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(value) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        table[Int(UInt8(ascii: "%"))] = percent
        table[Int(UInt8(ascii: " "))] = space
        for byte in [UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")] { table[Int(byte)] = lineBreak }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()

    /// Decodes a link's data, accepting percent-encoding, the URL-safe alphabet (`-` `_`),
    /// missing padding, line breaks and indentation inside (links wrapped in mail) and a space
    /// where a `+` was (form decoding). White space that includes a line break is skipped;
    /// a run of spaces without one stands for that many `+`.
    ///
    /// With `prefix`, decoding stops once that many bytes are out (to read a header cheaply).
    static func decodeFromLink(_ text: Substring, prefix: Int = .max) throws -> [UInt8] {
        let source = Array(text.utf8)
        let table = Self.table
        var output: [UInt8] = []
        output.reserveCapacity(source.count / 4 * 3 + 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var symbols = 0
        var padding = 0
        try source.withUnsafeBufferPointer { source in
            try table.withUnsafeBufferPointer { table in
                /// The code of the symbol at `index` (a percent-escape undone) and the next index.
                func symbol(at index: Int) throws -> (code: UInt8, byte: UInt8, next: Int) {
                    let byte = source[index]
                    let code = table[Int(byte)]
                    guard code == percent else { return (code, byte, index + 1) }
                    guard index + 2 < source.count, let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2]) else {
                        throw ReadingListError.badLink("bad percent escape at position \(index + 1) of the link's data")
                    }
                    let decoded = high << 4 | low
                    let decodedCode = table[Int(decoded)]
                    return (decodedCode == percent ? invalid : decodedCode, decoded, index + 3)
                }
                var index = 0
                while index < source.count, output.count < prefix {
                    var code = table[Int(source[index])]
                    var next = index + 1
                    var byte = source[index]
                    if code == percent { (code, byte, next) = try symbol(at: index) }
                    if code < 64 {
                        guard padding == 0 else {
                            throw ReadingListError.badLink("data after the padding (=) at position \(index + 1) of the link's data")
                        }
                        accumulator = accumulator << 6 | UInt32(code)
                        bits += 6
                        symbols += 1
                        if bits >= 8 {
                            bits -= 8
                            output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                        }
                    } else if code == pad {
                        padding += 1
                        guard padding <= 2 else {
                            throw ReadingListError.badLink("too much padding (=) at position \(index + 1) of the link's data")
                        }
                    } else if code == space || code == lineBreak {
                        // A run of white space: skipped when it holds a line break, else its
                        // spaces are `+` that form decoding turned into spaces.
                        var spaces = 0
                        var hasBreak = false
                        next = index
                        while next < source.count {
                            let (other, _, after) = try symbol(at: next)
                            if other == space {
                                spaces += 1
                            } else if other == lineBreak {
                                hasBreak = true
                            } else {
                                break
                            }
                            next = after
                        }
                        if !hasBreak, padding == 0, spaces > 0 {
                            for _ in 0..<spaces {
                                accumulator = accumulator << 6 | 62
                                bits += 6
                                symbols += 1
                                if bits >= 8 {
                                    bits -= 8
                                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                                }
                            }
                        }
                    } else {
                        throw ReadingListError.badLink(
                            "bad character \(describe(byte, at: index, in: source)) at position \(index + 1) of the link's data")
                    }
                    index = next
                }
            }
        }
        guard symbols % 4 != 1 || output.count >= prefix else {
            throw ReadingListError.badLink("the link's data is not valid base64 (\(symbols) symbols, one too many or too few)")
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func symbolValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }

    /// A bad character for a message: quoted, the whole UTF-8 sequence when it starts one.
    private static func describe(_ byte: UInt8, at offset: Int, in source: UnsafeBufferPointer<UInt8>) -> String {
        guard byte >= 0x20, byte != 0x7F else { return "0x\(String(byte, radix: 16, uppercase: true))" }
        if byte >= 0x80, source[offset] == byte {
            var end = offset + 1
            while end < source.count, source[end] & 0xC0 == 0x80 { end += 1 }
            return PropertyListValue.quoted(String(decoding: source[offset..<end], as: UTF8.self))
        }
        return PropertyListValue.quoted(String(decoding: [byte], as: UTF8.self))
    }
}
