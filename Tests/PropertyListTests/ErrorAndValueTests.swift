import BibreadTestSupport
import PropertyList
import Testing

@Suite("Errors and values")
struct ErrorAndValueTests {
    @Test("errors read as one line with their place")
    func descriptions() {
        #expect(PropertyListError.malformed(format: .binary, location: .byte(6), message: "bad").description
                == "malformed binary property list at byte 6: bad")
        #expect(PropertyListError.malformed(format: .xml, location: .line(5, column: 19), message: "bad").description
                == "malformed XML property list at 5:19: bad")
        #expect(PropertyListError.malformed(format: .binary, location: nil, message: "short").description
                == "malformed binary property list: short")
        #expect(PropertyListError.nestingTooDeep(limit: 3).description == "the property list nests values deeper than 3 levels")
        #expect(PropertyListError.tooManyValues(limit: 9).description == "the property list has more than 9 values")
        #expect(PropertyListError.tooLarge(byteCount: 20, limit: 10).description
                == "the property list is 20 bytes, more than the limit of 10")
    }

    @Test("accessors give the contents of their own kind only")
    func accessors() {
        let value = PropertyListValue.dictionary(PropertyListDictionary([Samples.entry("a", .array([.string("x")]))]))
        #expect(value["a"]?.array == [.string("x")])
        #expect(value["a"]?.array?.first?.string == "x")
        #expect(value["b"] == nil)
        #expect(value.string == nil)
        #expect(PropertyListValue.string("x")["a"] == nil)
        #expect(PropertyListValue.integer(1).dictionary == nil)
    }

    @Test("values are named for messages")
    func summaries() {
        #expect(PropertyListValue.string("a\"b\n").summary == "\"a\\\"b\\n\"")
        #expect(PropertyListValue.string(String(repeating: "é", count: 50)).summary == "\"" + String(repeating: "é", count: 40) + "…\"")
        #expect(PropertyListValue.uid(1).summary == "a UID")
        #expect(PropertyListValue.real(1.5).summary == "1.5")
        #expect(PropertyListValue.quoted("\u{1}") == "\"\\u{1}\"")
    }

    @Test("UTF-8 validation finds the first bad byte", arguments: [
        ([0x61, 0x62], nil), ([0x61, 0xFF], 1), ([0xC3, 0xA9, 0xC3], 2), ([0xE0, 0x80, 0x80], 0), ([0xF0, 0x9F, 0x93, 0x9A], nil),
    ] as [([UInt8], Int?)])
    func utf8(bytes: [UInt8], invalid: Int?) {
        #expect(UTF8Validation.firstInvalidByte(in: bytes[...]) == invalid)
    }

    /// Long ASCII runs are checked 32 and 8 bytes at a time: a bad byte is found wherever it
    /// falls in a block, and a character split across blocks is read whole.
    @Test(arguments: [0, 7, 8, 31, 32, 33, 63, 64, 70])
    func utf8InLongText(badAt position: Int) {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 80)
        #expect(UTF8Validation.firstInvalidByte(in: bytes[...]) == nil)
        bytes[position] = 0xFF
        #expect(UTF8Validation.firstInvalidByte(in: bytes[...]) == position)
        bytes[position] = 0xC3
        bytes[position + 1] = 0xA9
        #expect(UTF8Validation.firstInvalidByte(in: bytes[...]) == nil, "é at \(position)")
        #expect(UTF8Validation.firstInvalidByte(in: bytes[(position + 1)...]) == position + 1, "a slice that starts inside é")
    }

    /// Random text of ASCII runs, characters of two to four bytes and stray bytes: the first
    /// bad byte is where the standard library's UTF-8 parser first fails.
    @Test func utf8AgreesWithTheStandardLibraryOnRandomText() {
        let (start, seed) = SeededGenerator.forTest("utf8AgreesWithTheStandardLibraryOnRandomText")
        var generator = start
        let pieces: [[UInt8]] = [Array("plain ascii text ".utf8), [0x61], Array("é".utf8), Array("–".utf8), Array("𝔸".utf8),
                                 [0xFF], [0xC3], [0xE2, 0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0x80]]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                let piece = pieces.randomElement(using: &generator) ?? []
                bytes += Bool.random(using: &generator) ? Array(repeating: UInt8(ascii: "x"), count: Int.random(in: 0...40, using: &generator)) : piece
            }
            #expect(UTF8Validation.firstInvalidByte(in: bytes[...]) == Self.firstInvalidByReference(bytes), "\(bytes) (seed \(seed))")
        }
    }

    private static func firstInvalidByReference(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }
}
