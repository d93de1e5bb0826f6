import BibreadTestSupport
import Foundation
import ReadingList
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    /// A list of `depth` folders, each inside the previous one.
    private func nested(_ depth: Int) -> ReadingList {
        var folder = BookmarkFolder(name: "level \(depth)")
        for level in stride(from: depth - 1, through: 1, by: -1) {
            folder = BookmarkFolder(name: "level \(level)", children: [.folder(folder)])
        }
        return ReadingList(root: BookmarkFolder(name: "root", children: depth > 0 ? [.folder(folder)] : []))
    }

    private func limitMessage(_ bytes: [UInt8], limits: ReadingListLimits = ReadingListLimits(),
                              sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let error = readingListError({ _ = try ReadingListCoder.decode(bytes, limits: limits) }, sourceLocation: sourceLocation)
        guard case .limitExceeded(let message)? = error else {
            Issue.record("expected .limitExceeded, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return message
    }

    // MARK: - Depth

    @Test("64 nested folders are fine, 65 are refused", arguments: ReadingListFormat.allCases)
    func folderDepthBoundary(format: ReadingListFormat) throws {
        let deepest = nested(64)
        #expect(try ReadingListCoder.decode(ReadingListCoder.encode(deepest, as: format)).list == deepest)
        #expect(limitMessage(ReadingListCoder.encode(nested(65), as: format)) == "the list nests folders deeper than 64 levels")
    }

    @Test("the folder depth follows the limits")
    func customDepth() throws {
        var limits = ReadingListLimits()
        limits.maxDepth = 3
        let bytes = ReadingListCoder.encode(nested(3), as: .json)
        #expect(try ReadingListCoder.decode(bytes, limits: limits).list == nested(3))
        #expect(limitMessage(ReadingListCoder.encode(nested(4), as: .json), limits: limits)
                == "the list nests folders deeper than 3 levels")
        #expect(limitMessage(ReadingListCoder.encode(nested(30), as: .binary), limits: limits)
                == "the list nests values deeper than 20 levels")
    }

    @Test("100,000 nested arrays in XML are refused without a crash")
    func deepXMLArrays() {
        let xml = "<?xml version=\"1.0\"?><plist>" + String(repeating: "<array>", count: 100_000)
            + String(repeating: "</array>", count: 100_000) + "</plist>"
        #expect(limitMessage(Array(xml.utf8)) == "the list nests values deeper than 264 levels")
    }

    @Test("100,000 nested folders in XML are refused without a crash")
    func deepXMLFolders() {
        let open = "<dict><key>Class</key><string>Folder</string><key>Name</key><string>f</string><key>Children</key><array>"
        let xml = "<plist>" + String(repeating: open, count: 100_000) + String(repeating: "</array></dict>", count: 100_000) + "</plist>"
        #expect(limitMessage(Array(xml.utf8)) == "the list nests values deeper than 264 levels")
    }

    @Test("100,000 nested arrays and folders in JSON are refused without a crash")
    func deepJSON() {
        let arrays = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(limitMessage(Array(arrays.utf8)) == "the list nests values deeper than 264 levels")
        let folders = String(repeating: #"{"Class": "Folder", "Name": "f", "Children": ["#, count: 100_000)
            + String(repeating: "]}", count: 100_000)
        #expect(limitMessage(Array(folders.utf8)) == "the list nests values deeper than 264 levels")
        let unclosed = String(repeating: "{\"a\":", count: 100_000)
        #expect(limitMessage(Array(unclosed.utf8)) == "the list nests values deeper than 264 levels")
    }

    @Test("a chain of 100,000 arrays in a binary plist is refused without a crash")
    func deepBinary() {
        var plist = RawBinaryPlist()
        for index in 0..<100_000 {
            plist.add(RawBinaryPlist.array(index == 99_999 ? [] : [index + 1]))
        }
        #expect(limitMessage(plist.bytes()) == "the list nests values deeper than 264 levels")
    }

    @Test("a shared subtree cannot hide depth in a binary plist")
    func deepSharedBinary() {
        // Object 0 = [1, 201]. Objects 1…200 are a chain of arrays (fine at depth 2), and
        // objects 201…300 a second chain whose last array reaches object 1 again, 101 levels
        // down: the second reach must count the chain's height although it is built already.
        var plist = RawBinaryPlist()
        plist.add(RawBinaryPlist.array([1, 201]))
        for index in 1...200 { plist.add(RawBinaryPlist.array(index == 200 ? [] : [index + 1])) }
        for index in 201...300 { plist.add(RawBinaryPlist.array([index == 300 ? 1 : index + 1])) }
        #expect(limitMessage(plist.bytes()) == "the list nests values deeper than 264 levels")
    }

    // MARK: - Cycles and shared references

    @Test("a binary plist with a reference cycle is refused")
    func binaryCycle() {
        var plist = RawBinaryPlist()
        let root = plist.add([])  // patched below
        let classKey = plist.add(RawBinaryPlist.ascii("Class"))
        let folder = plist.add(RawBinaryPlist.ascii("Folder"))
        let childrenKey = plist.add(RawBinaryPlist.ascii("Children"))
        let children = plist.add(RawBinaryPlist.array([root]))
        var patched = RawBinaryPlist()
        patched.add(RawBinaryPlist.dictionary([(classKey, folder), (childrenKey, children)]))
        for object in plist.objects.dropFirst() { patched.add(object) }
        let error = readingListError { _ = try ReadingListCoder.decode(patched.bytes()) }
        guard case .malformed(.binary, let location?, let text)? = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(text == "object 0 contains itself (a reference cycle)")
        #expect(location.hasPrefix("byte "))

        var selfArray = RawBinaryPlist()
        selfArray.add(RawBinaryPlist.array([0, 0]))
        #expect(message(of: readingListError { _ = try ReadingListCoder.decode(selfArray.bytes()) }).contains("reference cycle"))
    }

    @Test("a billion-laughs DAG of shared references fails fast", arguments: [false, true])
    func billionLaughs(asFolders: Bool) {
        // 40 levels of 10 references each to the next level: 10^40 visits if expanded.
        var plist = RawBinaryPlist()
        let classKey = plist.add(RawBinaryPlist.ascii("Class"))
        let folderName = plist.add(RawBinaryPlist.ascii("Folder"))
        let nameKey = plist.add(RawBinaryPlist.ascii("Name"))
        let childrenKey = plist.add(RawBinaryPlist.ascii("Children"))
        let laughsKey = plist.add(RawBinaryPlist.ascii("Laughs"))
        var level = plist.add(RawBinaryPlist.ascii("lol"))
        for _ in 0..<40 {
            let array = plist.add(RawBinaryPlist.array(Array(repeating: level, count: 10)))
            level = asFolders
                ? plist.add(RawBinaryPlist.dictionary([(classKey, folderName), (nameKey, folderName), (childrenKey, array)]))
                : array
        }
        // As folders, the root's Children holds the top folder ten times; otherwise the
        // laughs hang under a key the tree ignores (the readers still count them).
        let top = asFolders ? plist.add(RawBinaryPlist.array(Array(repeating: level, count: 10))) : level
        let root = plist.add(RawBinaryPlist.dictionary([(classKey, folderName), (nameKey, folderName),
                                                        (asFolders ? childrenKey : laughsKey, top)]))
        var message = ""
        let elapsed = seconds {
            message = HostileInputTests.limitText(plist.bytes(top: root))
        }
        #expect(message == "the list has more than 2000000 values")
        #expect(elapsed < TestTiming.seconds(1.0))
    }

    private static func limitText(_ bytes: [UInt8]) -> String {
        do {
            _ = try ReadingListCoder.decode(bytes)
            return "decoded"
        } catch ReadingListError.limitExceeded(let message) {
            return message
        } catch {
            return "\(error)"
        }
    }

    @Test("shared references are fine within the limits and count every time")
    func sharedReferences() throws {
        var plist = RawBinaryPlist()
        let classKey = plist.add(RawBinaryPlist.ascii("Class"))
        let nameKey = plist.add(RawBinaryPlist.ascii("Name"))
        let childrenKey = plist.add(RawBinaryPlist.ascii("Children"))
        let referenceKey = plist.add(RawBinaryPlist.ascii("Reference"))
        let citeKeyKey = plist.add(RawBinaryPlist.ascii("CiteKey"))
        let pageKey = plist.add(RawBinaryPlist.ascii("Page"))
        let folder = plist.add(RawBinaryPlist.ascii("Folder"))
        let bookmarkClass = plist.add(RawBinaryPlist.ascii("Bookmark"))
        let page = plist.add([0x10, 7])
        let reference = plist.add(RawBinaryPlist.dictionary([(citeKeyKey, bookmarkClass), (pageKey, page)]))
        let bookmark = plist.add(RawBinaryPlist.dictionary([(classKey, bookmarkClass), (nameKey, bookmarkClass), (referenceKey, reference)]))
        let children = plist.add(RawBinaryPlist.array(Array(repeating: bookmark, count: 5)))
        let root = plist.add(RawBinaryPlist.dictionary([(classKey, folder), (nameKey, folder), (childrenKey, children)]))
        let bytes = plist.bytes(top: root)
        let decoded = try ReadingListCoder.decode(bytes)
        #expect(decoded.list.bookmarks == Array(repeating: Bookmark(name: "Bookmark", reference: PageReference(citeKey: "Bookmark", page: 7)), count: 5))
        // The root costs itself, 3 keys and 3 values; each bookmark 1 + 3 keys + 2 strings +
        // its reference (1 + 2 keys + 2 values) = 11, although all five are one object.
        var limits = ReadingListLimits()
        limits.maxValues = 1 + 3 + 3 + 5 * 11
        #expect(try ReadingListCoder.decode(bytes, limits: limits).list.bookmarks.count == 5)
        limits.maxValues -= 1
        #expect(limitMessage(bytes, limits: limits) == "the list has more than \(limits.maxValues) values")
    }

    // MARK: - Sizes and counts

    @Test("node and byte caps are enforced")
    func nodeAndByteCaps() {
        let list = ReadingList(root: BookmarkFolder(name: "r", children: (0..<11).map { .notemark(Notemark(name: "n\($0)", text: "")) }))
        var limits = ReadingListLimits()
        limits.maxNodes = 10
        for format in ReadingListFormat.allCases {
            #expect(limitMessage(ReadingListCoder.encode(list, as: format), limits: limits) == "the list has more than 10 nodes")
        }
        limits = ReadingListLimits()
        limits.maxBytes = 100
        #expect(limitMessage(Array(repeating: UInt8(ascii: " "), count: 101), limits: limits)
                == "the list is 101 bytes, more than the limit of 100")
        limits.maxValues = 3
        #expect(limitMessage(Array(#"{"a": [1, 2, 3]}"#.utf8), limits: limits) == "the list has more than 3 values")
        #expect(limitMessage(Array("<plist><dict><key>a</key><array><true/><true/><true/></array></dict></plist>".utf8), limits: limits)
                == "the list has more than 3 values")
    }

    // MARK: - Garbage

    @Test("empty and blank input is not a list")
    func emptyInput() {
        for input in ["", "   \n\t", "\u{FEFF}"] {
            #expect(readingListError { _ = try ReadingListCoder.decode(Array(input.utf8)) } == .unrecognizedFormat("the input is empty"))
        }
        #expect(readingListError { _ = try ReadingListCoder.decode(Array("hello".utf8)) }
                == .unrecognizedFormat("the input is neither a property list (XML or binary) nor JSON"))
        #expect(ReadingListCoder.detectFormat([]) == nil)
        #expect(ReadingListCoder.detectFormat(Array("<!DOCTYPE html><html>".utf8)) == nil)
        #expect(ReadingListCoder.detectFormat(Array("\u{FEFF}\n  <?xml version=\"1.0\"?>".utf8)) == .xml)
        #expect(ReadingListCoder.detectFormat(Array(" \n{".utf8)) == .json)
    }

    @Test("random bytes never crash the readers", arguments: ["", "bplist00", "<?xml version=\"1.0\"?><plist>", "{", "["])
    func randomBytes(prefix: String) {
        var random = SplitMix(seed: 0x5EED + UInt64(prefix.utf8.count))
        for _ in 0..<400 {
            let count = Int(random.next() % 600)
            let bytes = Array(prefix.utf8) + (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            do {
                _ = try ReadingListCoder.decode(bytes)
            } catch is ReadingListError {
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
    }

    @Test("random well-formed UTF-8 after XML openings never crashes the parser")
    func randomXML() {
        let openings = ["<?xml version=\"1.0\"?><plist>", "<plist><dict><key>", "<plist><array><string>",
                        "<plist><!--", "<plist><?pi ", "<plist><a ", "<plist><dict><key>k</key><data>"]
        let alphabet = Array("<>/=\"' abc&;#x!?-[]\n".utf8)
        var random = SplitMix(seed: 7)
        for round in 0..<3000 {
            var bytes = Array(openings[round % openings.count].utf8)
            for _ in 0..<(random.next() % 120) {
                switch random.next() % 4 {
                case 0, 1: bytes.append(alphabet[Int(random.next() % UInt64(alphabet.count))])
                case 2: bytes.append(UInt8(truncatingIfNeeded: random.next() % 0x80))
                default: bytes += Array(String(Character(Unicode.Scalar(UInt32(0xA0 + random.next() % 0x2000)) ?? "x")).utf8)
                }
            }
            do {
                _ = try ReadingListCoder.decode(bytes)
            } catch is ReadingListError {
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
    }

    @Test("XML that is not UTF-8 is refused before it reaches the parser")
    func xmlNotUTF8() {
        let bytes = Array("<plist>\n<string>".utf8) + [0xE9, 0x3C] + Array("/string></plist>".utf8)
        #expect(readingListError { _ = try ReadingListCoder.decode(bytes) }
                == .malformed(format: .xml, location: "2:9", message: "the text is not valid UTF-8"))
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>x</string></plist>".utf8)
        #expect(readingListError { _ = try ReadingListCoder.decode(latin1) }
                == .malformed(format: .xml, location: "1:1", message: "the document declares the encoding \"ISO-8859-1\"; only UTF-8 is supported"))
    }

    @Test("mutated lists never crash the readers", arguments: ReadingListFormat.allCases)
    func mutations(format: ReadingListFormat) {
        let original = ReadingListCoder.encode(Samples.rich, as: format)
        var random = SplitMix(seed: 42)
        var failures = 0
        for round in 0..<1500 {
            var bytes = original
            if round % 10 == 0 {
                bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            }
            for _ in 0..<(1 + random.next() % 4) where !bytes.isEmpty {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] = round % 3 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[index] ^ (1 << (random.next() % 8))
            }
            do {
                _ = try ReadingListCoder.decode(bytes)
            } catch is ReadingListError {
                failures += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
        }
        #expect(failures > 100)  // the mutations do reach the error paths
    }

    // MARK: - Malformed input, with locations

    @Test("an XML syntax error is reported with its line and column")
    func xmlSyntaxError() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>Name</key>
            \t<string>x</strin>
            </dict>
            </plist>
            """
        let error = readingListError { _ = try ReadingListCoder.decode(Array(xml.utf8)) }
        #expect(error == .malformed(format: .xml, location: "5:19", message: "a closing tag does not match its opening tag"))
        #expect(error?.description == "malformed XML property list at 5:19: a closing tag does not match its opening tag")
    }

    @Test("XML errors of structure are reported with their place", arguments: [
        ("<plist><dict><key>a</key><foo/></dict></plist>", "unknown element <foo>"),
        ("<plist><dict><string>a</string></dict></plist>", "<string> in a <dict> without a <key> before it"),
        ("<plist><dict><key>a</key></dict></plist>", "the key \"a\" has no value"),
        ("<plist><integer>12a</integer></plist>", "<integer> holds \"12a\", not an integer"),
        ("<plist><string>a<b/></string></plist>", "<b> inside <string>"),
        ("<plist><dict/><dict/></plist>", "more than one value at the top of the property list"),
        ("<plist>text</plist>", "unexpected text \"text\""),
    ])
    func xmlStructureErrors(xml: String, expected: String) {
        let error = readingListError { _ = try ReadingListCoder.decode(Array(xml.utf8)) }
        guard case .malformed(.xml, let location?, let message)? = error else {
            Issue.record("expected .malformed, got \(String(describing: error))")
            return
        }
        #expect(message == expected)
        #expect(location.hasPrefix("1:"))
    }

    @Test("XML entity declarations are refused before parsing")
    func xmlEntities() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <plist><string>&b;</string></plist>
            """
        #expect(readingListError { _ = try ReadingListCoder.decode(Array(xml.utf8)) }
                == .malformed(format: .xml, location: "2:18", message: "entity declarations are not allowed in a property list"))
    }

    @Test("XML with a BOM, leading white space, comments, CDATA and empty strings decodes")
    func xmlLeniency() throws {
        let xml = "\u{FEFF}\n  \n<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a comment -->\n<plist version=\"1.0\"><dict>"
            + "<key>Class</key><string>Folder</string><key>Name</key><string/><key>Children</key><array>"
            + "<dict><key>Class</key><string>Notemark</string><key>Name</key><string><![CDATA[<b>&</b>]]></string>"
            + "<key>Text</key><string>a &amp; &#x1F600; b</string></dict>"
            + "<dict><key>Class</key><string>Bookmark</string><key>Name</key><string>r</string><key>Reference</key><dict>"
            + "<key>CiteKey</key><string>k</string><key>Page</key><real>12.0</real><key>LastPage</key><integer> 13 </integer>"
            + "</dict></dict></array></dict></plist>"
        let decoded = try ReadingListCoder.decode(Array(xml.utf8))
        #expect(decoded.list == ReadingList(root: BookmarkFolder(name: "", children: [
            .notemark(Notemark(name: "<b>&</b>", text: "a & 😀 b")),
            .bookmark(Bookmark(name: "r", reference: PageReference(citeKey: "k", page: 12, lastPage: 13))),
        ])))
        let broken = "\u{FEFF}\n\n<plist><dict></array></plist>"
        guard case .malformed(.xml, let location?, _)? = readingListError({ _ = try ReadingListCoder.decode(Array(broken.utf8)) }) else {
            Issue.record("expected .malformed")
            return
        }
        #expect(location.hasPrefix("3:"))
    }

    @Test("JSON syntax errors are reported with their line and column", arguments: [
        ("{\"Class\": \"Folder\",\n  \"Name\": x}", "2:11", "expected a value, found \"x\""),
        ("{\"a\": 1,}", "1:9", "expected a key in double quotes, found \"}\""),
        ("{\"a\": \"é\u{1}\"}", "1:9", "a control character inside a string (write it as \\u escape)"),
        ("{\"a\" 1}", "1:6", "expected : after the key \"a\", found \"1\""),
        ("{\"a\": [1 2]}", "1:10", "expected , or ], found \"2\""),
        ("{\"a\": 01}", "1:7", "a number has a leading zero"),
        ("{} {}", "1:4", "unexpected \"{\" after the end of the JSON value"),
        ("{\"a\": \"unterminated", "1:7", "the string is not closed"),
        ("{\"a\": tru}", "1:7", "expected a value, found \"t\""),
    ])
    func jsonSyntaxErrors(json: String, location: String, message: String) {
        #expect(readingListError { _ = try ReadingListCoder.decode(Array(json.utf8)) }
                == .malformed(format: .json, location: location, message: message))
    }

    @Test("invalid UTF-8 in JSON is refused with its place")
    func jsonInvalidUTF8() {
        let bytes = Array("{\n \"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        #expect(readingListError { _ = try ReadingListCoder.decode(bytes) }
                == .malformed(format: .json, location: "2:8", message: "the text is not valid UTF-8"))
    }

    @Test("damaged binary plists are refused with the byte at fault")
    func binaryDamage() {
        let good = ReadingListCoder.encode(Samples.rich, as: .binary)
        func problem(_ bytes: [UInt8]) -> (String?, String) {
            guard case .malformed(.binary, let location, let message)? = readingListError({ _ = try ReadingListCoder.decode(bytes) }) else {
                return (nil, "not malformed")
            }
            return (location, message)
        }
        var version = good
        version[7] = UInt8(ascii: "1")
        #expect(problem(version) == ("byte 6", "unsupported binary property list version \"01\""))
        #expect(problem(Array("bplist00".utf8) + [0x08]) == (nil, "the data is too short for a binary property list (9 bytes)"))
        var table = good
        table[table.count - 1] = 0xFF
        #expect(problem(table).1.hasPrefix("the offset table at "))
        var count = good
        count[count.count - 24] = 0xFF
        #expect(problem(count).1.hasSuffix("objects, impossible in \(good.count) bytes"))
        var sizes = good
        sizes[sizes.count - 26] = 9
        #expect(problem(sizes) == ("byte \(good.count - 26)", "the trailer gives an offset size of 9 bytes (expected 1 to 8)"))

        var plist = RawBinaryPlist()
        plist.add(RawBinaryPlist.array([5]))
        #expect(problem(plist.bytes()) == ("byte 9", "object 0 refers to object 5, but there are only 1"))
        plist = RawBinaryPlist()
        plist.add([0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(problem(plist.bytes()).1 == "object 0 declares a length of 9223372036854775807, more than the data holds")
        plist = RawBinaryPlist()
        plist.add([0x5A, 0x41])
        #expect(problem(plist.bytes()) == ("byte 9", "the string of object 0 runs past the object area"))
        plist = RawBinaryPlist()
        plist.add([0x70])
        #expect(problem(plist.bytes()) == ("byte 8", "object 0 has an unknown type marker 0x70"))
        plist = RawBinaryPlist()
        plist.add([0xD1, 0, 0, 0, 1, 0, 0, 0, 1])
        plist.add([0x10, 1])
        #expect(problem(plist.bytes()) == ("byte 17", "a key of dictionary object 0 is not a string"))
    }
}

/// A small deterministic random number generator (SplitMix64).
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

@Suite("Binary plist objects")
struct BinaryObjectTests {
    @Test("every binary plist object type is read")
    func everyType() throws {
        var plist = RawBinaryPlist()
        func key(_ text: String) -> Int { plist.add(RawBinaryPlist.ascii(text)) }
        let classKey = key("Class"), nameKey = key("Name"), childrenKey = key("Children"), referenceKey = key("Reference")
        let citeKeyKey = key("CiteKey"), pageKey = key("Page"), lastPageKey = key("LastPage"), extraKey = key("Extra")
        let folder = key("Folder"), bookmark = key("Bookmark")
        let utf16Name = plist.add([0x62, 0x65, 0xE5, 0x67, 0x2C])  // "日本"
        let citeKey = key("k")
        let page = plist.add([0x11, 0x01, 0x2C])  // 300 in two bytes
        let lastPage = plist.add([0x22, 0x43, 0x96, 0x80, 0x00])  // 301.0 as a 4-byte real
        let reference = plist.add(RawBinaryPlist.dictionary([(citeKeyKey, citeKey), (pageKey, page), (lastPageKey, lastPage)]))
        let extras = [
            plist.add([0x00]), plist.add([0x0F]), plist.add([0x08]), plist.add([0x09]),
            plist.add([0x10, 0xFF]), plist.add([0x12, 0, 1, 0, 0]), plist.add([0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFB]),
            plist.add([0x14] + Array(repeating: 0, count: 8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            plist.add([0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]), plist.add([0x33, 0x41, 0xC1, 0, 0, 0, 0, 0, 0]),
            plist.add([0x43, 1, 2, 3]), plist.add([0x81, 0x01, 0x00]),
            plist.add(RawBinaryPlist.marker(0x4, count: 20) + Array(repeating: 7, count: 20)),
        ]
        let set = plist.add([0xC2] + RawBinaryPlist.reference(extras[0]) + RawBinaryPlist.reference(extras[1]))
        let orderedSet = plist.add([0xB1] + RawBinaryPlist.reference(extras[2]))
        let extra = plist.add(RawBinaryPlist.array(extras + [set, orderedSet]))
        let mark = plist.add(RawBinaryPlist.dictionary([(classKey, bookmark), (nameKey, utf16Name), (referenceKey, reference),
                                                        (extraKey, extra)]))
        let children = plist.add([0xC1] + RawBinaryPlist.reference(mark))  // a set holds the children
        let root = plist.add(RawBinaryPlist.dictionary([(classKey, folder), (nameKey, utf16Name), (childrenKey, children)]))
        let decoded = try ReadingListCoder.decode(plist.bytes(top: root))
        #expect(decoded.list == ReadingList(root: BookmarkFolder(name: "日本", children: [
            .bookmark(Bookmark(name: "日本", reference: PageReference(citeKey: "k", page: 300, lastPage: 301))),
        ])))
    }

    @Test("plist types in the wrong places are named in messages")
    func typeNames() throws {
        let bytes = try Python.bytes("""
            import base64, datetime, plistlib
            tree = {'Class': 'Folder', 'Name': 'R', 'Children': [
              {'Class': 'Bookmark', 'Name': b'data', 'Reference': {'CiteKey': plistlib.UID(1), 'Page': datetime.datetime(2024, 1, 2)}},
              {'Class': 'Bookmark', 'Name': 'n', 'Reference': {'CiteKey': 'k', 'Page': -5, 'LastPage': 1.5}},
              {'Class': 'Notemark', 'Name': 'n', 'Text': True},
              {'Class': 'Bookmark', 'Name': 'n', 'Reference': {'CiteKey': 'k', 'Page': 2 ** 64 - 1}}]}
            print(base64.b64encode(plistlib.dumps(tree, fmt=plistlib.FMT_BINARY)).decode())
            """)
        guard case .invalid(let problems)? = readingListError({ _ = try ReadingListCoder.decode(bytes) }) else {
            Issue.record("expected .invalid")
            return
        }
        #expect(problems.map(\.description) == [
            "Children[0].Name: expected a string, found data",
            "Children[0].Reference.CiteKey: expected a cite key, found a UID",
            "Children[0].Reference.Page: expected a number ≥ 1, found a date",
            "Children[1].Reference.Page: expected a number ≥ 1, found -5",
            "Children[1].Reference.LastPage: expected a number ≥ 1, found 1.5",
            "Children[2].Text: expected a string, found a boolean",
            "Children[3].Reference.Page: expected a number ≥ 1, found 1.8446744073709552e+19",
        ])
    }
}
