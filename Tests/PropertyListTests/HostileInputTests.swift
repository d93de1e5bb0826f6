import Foundation
import PropertyList
import Testing

/// Input written to hurt: deep nesting, cycles, shared references, broken offsets, bad UTF-8.
@Suite("Hostile input")
struct HostileInputTests {
    private static let defaultDepth = PropertyListLimits().maxDepth

    // MARK: - Nesting

    @Test("100,000 nested arrays or dictionaries in XML are refused with the nesting error")
    func deepXML() {
        let arrays = "<?xml version=\"1.0\"?><plist>" + String(repeating: "<array>", count: 100_000)
            + String(repeating: "</array>", count: 100_000) + "</plist>"
        #expect(propertyListError { _ = try XMLPropertyList.parse(Array(arrays.utf8)) } == .nestingTooDeep(limit: Self.defaultDepth))
        let dictionaries = "<plist>" + String(repeating: "<dict><key>k</key>", count: 100_000) + "</plist>"
        #expect(propertyListError { _ = try XMLPropertyList.parse(Array(dictionaries.utf8)) } == .nestingTooDeep(limit: Self.defaultDepth))
    }

    @Test("a chain of 100,000 arrays in a binary plist is refused with the nesting error")
    func deepBinary() throws {
        let bytes = try Plistlib.bytes("emit(bplist([array([i + 1] if i < 99999 else []) for i in range(100000)]))")
        #expect(propertyListError { _ = try BinaryPropertyList.parse(bytes) } == .nestingTooDeep(limit: Self.defaultDepth))
    }

    @Test("the nesting limit is exact in both formats", arguments: Format.both)
    func depthBoundary(format: Format) throws {
        let limits = PropertyListLimits(maxDepth: 3)
        let three = PropertyListValue.array([.array([.array([.string("deepest")])])])
        #expect(try format.parse(format.serialize(three), limits: limits) == three)
        let four = PropertyListValue.array([three])
        #expect(propertyListError { _ = try format.parse(format.serialize(four), limits: limits) } == .nestingTooDeep(limit: 3))
    }

    @Test("a shared subtree cannot hide depth in a binary plist")
    func deepSharedBinary() throws {
        // Object 0 = [1, 11]; 1…10 a chain of arrays; 11…20 a second chain ending at object 1
        // again, 10 levels further down, so its height must count although it is built already.
        let bytes = try Plistlib.bytes("""
            objects = [array([1, 11])] + [array([i + 1] if i < 10 else []) for i in range(1, 11)]
            objects += [array([i + 1] if i < 20 else [1]) for i in range(11, 21)]
            emit(bplist(objects))
            """)
        #expect(try BinaryPropertyList.parse(bytes, limits: PropertyListLimits(maxDepth: 21)) != .null)
        #expect(propertyListError { _ = try BinaryPropertyList.parse(bytes, limits: PropertyListLimits(maxDepth: 20)) }
                == .nestingTooDeep(limit: 20))
    }

    // MARK: - Cycles and shared references

    @Test("reference cycles are refused with the object and its place", arguments: [
        "bplist([array([0])])", "bplist([array([1]), array([2]), array([0])])", "bplist([array([1, 1]), array([0])])",
    ])
    func cycles(script: String) throws {
        let bytes = try Plistlib.bytes("emit(\(script))")
        #expect(propertyListError { _ = try BinaryPropertyList.parse(bytes) }
                == .malformed(format: .binary, location: .byte(8), message: "object 0 contains itself (a reference cycle)"))
    }

    @Test("a billion laughs of shared references fails fast with too many values")
    func billionLaughs() throws {
        // 40 levels of 10 references each to the level below: 10^40 visits if expanded.
        let bytes = try Plistlib.bytes("""
            objects = [b'\\x53lol']
            for level in range(40):
                objects.append(array([len(objects) - 1] * 10))
            emit(bplist(objects, top=len(objects) - 1))
            """)
        let clock = ContinuousClock()
        var error: PropertyListError?
        let elapsed = clock.measure { error = propertyListError { _ = try BinaryPropertyList.parse(bytes) } }
        #expect(error == .tooManyValues(limit: 2_000_000))
        #expect(elapsed < .seconds(1))
    }

    @Test("shared references count at every visit")
    func sharedReferencesCount() throws {
        // [s, [s, s], [s, s]] with one shared string object: 1 + 1 + 3 + 3 visits.
        let bytes = try Plistlib.bytes("emit(bplist([array([1, 2, 2]), b'\\x51s', array([1, 1])]))")
        let value = PropertyListValue.array([.string("s"), .array([.string("s"), .string("s")]), .array([.string("s"), .string("s")])])
        #expect(try BinaryPropertyList.parse(bytes, limits: PropertyListLimits(maxValues: 8)) == value)
        #expect(propertyListError { _ = try BinaryPropertyList.parse(bytes, limits: PropertyListLimits(maxValues: 7)) }
                == .tooManyValues(limit: 7))
    }

    @Test("the value and size caps hold in both formats", arguments: Format.both)
    func caps(format: Format) {
        let bytes = format.serialize(.array([.boolean(true), .boolean(true), .boolean(true)]))
        #expect(propertyListError { _ = try format.parse(bytes, limits: PropertyListLimits(maxValues: 3)) } == .tooManyValues(limit: 3))
        #expect(propertyListError { _ = try format.parse(bytes, limits: PropertyListLimits(maxBytes: 10)) }
                == .tooLarge(byteCount: bytes.count, limit: 10))
    }

    // MARK: - Damaged binary plists

    @Test("every truncation of a binary plist is refused without a crash")
    func truncations() {
        let good = BinaryPropertyList.serialize(Samples.value)
        var refused = 0
        for length in 0..<good.count where propertyListError({ _ = try BinaryPropertyList.parse(Array(good.prefix(length))) }) != nil {
            refused += 1
        }
        #expect(refused == good.count)
        guard case .malformed(.binary, _, _)? = propertyListError({ _ = try BinaryPropertyList.parse(Array(good.dropLast(10))) }) else {
            Issue.record("a cut trailer is not reported as malformed")
            return
        }
    }

    @Test("offsets and references out of range are refused with the byte at fault", arguments: [
        ("bplist([array([1]), b'\\x08'], offsets={1: 0xFFFFFFF0})", "byte 18",
         "object 1 has offset 4294967280, outside the object area"),
        ("bplist([b'\\x08'], offsets={0: 3})", "byte 9", "object 0 has offset 3, outside the object area"),
        ("bplist([array([7])])", "byte 9", "object 0 refers to object 7, but there are only 1"),
        ("bplist([b'\\x5A\\x41'])", "byte 9", "the string of object 0 runs past the object area"),
        ("bplist([b'\\x70'])", "byte 8", "object 0 has an unknown type marker 0x70"),
        ("bplist([b'\\x08'], top=5)", nil, "the top object 5 is not one of the 1 objects"),
    ] as [(String, String?, String)])
    func badOffsets(script: String, location: String?, message: String) throws {
        let bytes = try Plistlib.bytes("emit(\(script))")
        guard case .malformed(.binary, let place, let text)? = propertyListError({ _ = try BinaryPropertyList.parse(bytes) }) else {
            Issue.record("not refused as malformed")
            return
        }
        #expect(text == message)
        if let location { #expect(place?.description == location) }
    }

    @Test("random mutations of both formats never crash the readers", arguments: Format.both)
    func mutations(format: Format) {
        let original = format.serialize(Samples.value)
        var state: UInt64 = 0x5EED
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var refused = 0
        for _ in 0..<1000 {
            var bytes = original
            for _ in 0...(next() % 4) {
                bytes[next() % bytes.count] = UInt8(truncatingIfNeeded: next())
            }
            if propertyListError({ _ = try format.parse(bytes) }) != nil { refused += 1 }
        }
        #expect(refused > 100)
    }

    // MARK: - XML text

    @Test("invalid UTF-8 is refused with its line and column before the parser sees it", arguments: [
        ([0xE9, 0x3C], "2:9"), ([0xC0, 0xAF], "2:9"), ([0xED, 0xA0, 0x80], "2:9"), ([0xF4, 0x90, 0x80, 0x80], "2:9"),
        ([0xE2, 0x82], "2:9"),
    ] as [([UInt8], String)])
    func invalidUTF8(bad: [UInt8], location: String) {
        let bytes = Array("<plist>\n<string>".utf8) + bad + Array("</string></plist>".utf8)
        let error = propertyListError { _ = try XMLPropertyList.parse(bytes) }
        #expect(error == .malformed(format: .xml, location: .line(2, column: 9), message: "the text is not valid UTF-8"))
        #expect(error?.description == "malformed XML property list at \(location): the text is not valid UTF-8")
        let inName = Array("<plist><".utf8) + bad + Array("/></plist>".utf8)
        #expect(propertyListError { _ = try XMLPropertyList.parse(inName) } != nil)
    }

    @Test("entity declarations, external ones included, are refused before parsing")
    func entities() {
        let external = #"<!DOCTYPE plist [<!ENTITY x SYSTEM "file:///etc/passwd">]><plist><string>&x;</string></plist>"#
        #expect(propertyListError { _ = try XMLPropertyList.parse(Array(external.utf8)) }
                == .malformed(format: .xml, location: .line(1, column: 18), message: "entity declarations are not allowed in a property list"))
        let laughs = "<!DOCTYPE plist [<!ENTITY a \"lol\">" + (1...9).map { "<!ENTITY a\($0) \"&a;&a;&a;&a;&a;&a;&a;&a;\">" }.joined()
            + "]>\n<plist><string>&a9;</string></plist>"
        guard case .malformed(.xml, _, let message)? = propertyListError({ _ = try XMLPropertyList.parse(Array(laughs.utf8)) }) else {
            Issue.record("entity expansion not refused")
            return
        }
        #expect(message == "entity declarations are not allowed in a property list")
    }

    @Test("XML syntax and structure errors carry line and column")
    func xmlErrors() {
        let mismatched = "<?xml version=\"1.0\"?>\n<plist>\n<dict>\n\t<key>a</key>\n\t<string>x</strin>\n</dict>\n</plist>"
        #expect(propertyListError { _ = try XMLPropertyList.parse(Array(mismatched.utf8)) }
                == .malformed(format: .xml, location: .line(5, column: 19), message: "a closing tag does not match its opening tag"))
        let unknown = "<plist><dict><key>a</key><foo/></dict></plist>"
        guard case .malformed(.xml, .line(1, _)?, "unknown element <foo>")? = propertyListError({
            _ = try XMLPropertyList.parse(Array(unknown.utf8))
        }) else {
            Issue.record("unknown element not reported")
            return
        }
        #expect(propertyListError { _ = try XMLPropertyList.parse([]) } != nil)
    }
}
