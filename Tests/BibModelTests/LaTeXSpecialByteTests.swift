import Testing
@testable import BibModel

/// The decoder's table of the bytes that end a run of ordinary text.
@Suite("LaTeX special bytes")
struct LaTeXSpecialByteTests {
    @Test func theTableHoldsExactlyTheSpecialBytes() {
        let special = Set("{}\\$~ \t\n\r-`'^_".utf8)
        #expect(special.count == 14)
        for byte in UInt8.min...UInt8.max {
            #expect(LaTeX.runEnders[Int(byte)] == special.contains(byte), "byte \(byte)")
        }
    }

    /// Plain text is what decoding leaves alone and what a JSON string holds unescaped: a
    /// quote, a backslash or a control byte anywhere makes text not plain, while decoding still
    /// gives a quote and a control byte back as they are.
    @Test func plainTextNeedsNoJSONEscapeAndDecodesToItself() {
        for byte in UInt8.min...0x7F {
            for text in [[byte], [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], [UInt8(ascii: "a"), byte]] {
                let plain = text.withUnsafeBufferPointer { LaTeX.isPlain($0) }
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    #expect(!plain, "\(text)")
                }
                if plain {
                    #expect(LaTeX.decode(String(decoding: text, as: UTF8.self)) == String(decoding: text, as: UTF8.self), "\(text)")
                }
            }
        }
        for byte: UInt8 in [0x22, 0x01, 0x0B, 0x0C, 0x1F] {
            let text = String(decoding: [UInt8(ascii: "a"), byte, UInt8(ascii: "b")], as: UTF8.self)
            #expect(LaTeX.decode(text) == text, "byte \(byte)")
        }
    }
}
