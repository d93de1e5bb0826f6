import PropertyList
import Testing

/// Both formats against Python's plistlib: what it writes we read, what we write it reads.
@Suite("Round trips with plistlib")
struct RoundTripTests {
    @Test("plistlib's output reads as the expected value", arguments: Format.both)
    func plistlibOutputReads(format: Format) throws {
        let bytes = try Plistlib.bytes("emit(plistlib.dumps(\(Samples.python), fmt=plistlib.\(format.python)))")
        #expect(try format.parse(bytes) == Samples.value)
    }

    @Test("plistlib reads our output as the same tree", arguments: Format.both)
    func ourOutputLoadsInPlistlib(format: Format) throws {
        let answer = try Plistlib.output("""
            loaded = plistlib.loads(data)
            expected = \(Samples.python)
            print('equal' if loaded == expected else repr(loaded))
            """, input: format.serialize(Samples.value))
        #expect(answer == "equal")
    }

    @Test("our output reads back as the value written", arguments: Format.both)
    func ownRoundTrip(format: Format) throws {
        #expect(try format.parse(format.serialize(Samples.value)) == Samples.value)
    }

    @Test("UIDs and null survive a binary round trip, and plistlib agrees on UIDs")
    func uidAndNull() throws {
        let value = PropertyListValue.array([.uid(0), .uid(255), .uid(1 << 40), .null])
        #expect(try BinaryPropertyList.parse(BinaryPropertyList.serialize(value)) == value)
        let uids = PropertyListValue.array([.uid(0), .uid(255), .uid(1 << 40)])
        let answer = try Plistlib.output("print(plistlib.loads(data) == [UID(0), UID(255), UID(1 << 40)])",
                                         input: BinaryPropertyList.serialize(uids))
        #expect(answer == "True")
        let fromPython = try Plistlib.bytes("emit(plistlib.dumps([UID(7), UID(70000)], fmt=plistlib.FMT_BINARY))")
        #expect(try BinaryPropertyList.parse(fromPython) == .array([.uid(7), .uid(70000)]))
    }

    @Test("large containers use extended lengths and wider references both ways")
    func largeContainers() throws {
        let bytes = try Plistlib.bytes("emit(plistlib.dumps({'k%04d' % i: ['v'] * 20 for i in range(700)}, fmt=plistlib.FMT_BINARY))")
        let value = try BinaryPropertyList.parse(bytes)
        #expect(value.dictionary?.entries.count == 700)
        #expect(value["k0699"]?.array?.count == 20)
        let answer = try Plistlib.output("print(len(plistlib.loads(data)), plistlib.loads(data)['k0699'][19])",
                                         input: BinaryPropertyList.serialize(value))
        #expect(answer == "700 v")
    }

    @Test("a repeated key keeps its last value, as Apple's readers do")
    func repeatedKeys() throws {
        let xml = "<plist><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>"
        let value = try XMLPropertyList.parse(Array(xml.utf8))
        #expect(value["a"] == .integer(2))
        #expect(value.dictionary?.entries.count == 2)
    }
}
