import BibreadTestSupport
import Foundation
import ReadingList
import Testing

@Suite("Links")
struct LinkTests {
    private static let small = ReadingList(root: BookmarkFolder(name: "Small", children: [
        .bookmark(Bookmark(name: "b", reference: PageReference(citeKey: "k", page: 3))),
    ]))

    /// A link from a Python script that prints `base64(length + stream)` for the binary plist of
    /// the small list, `body` being bytes in `b`; `length` and `stream` may be changed by it.
    private func link(_ body: String) throws -> String {
        let output = try Python.run("""
            import base64, plistlib, struct, zlib
            b = plistlib.dumps({'Class': 'Folder', 'Name': 'Small', 'Children': [
                {'Class': 'Bookmark', 'Name': 'b', 'Reference': {'CiteKey': 'k', 'Page': 3}}]}, fmt=plistlib.FMT_BINARY)
            length = len(b)
            stream = zlib.compress(b, 9)
            \(body)
            print('bibread://bookmarks?' + base64.b64encode(struct.pack('<I', length) + stream).decode())
            """)
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func badLink(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let error = readingListError({ _ = try BookmarkLink.parse(text) }, sourceLocation: sourceLocation)
        guard case .badLink(let message)? = error else {
            Issue.record("expected .badLink, got \(String(describing: error))", sourceLocation: sourceLocation)
            return ""
        }
        return message
    }

    @Test("the unchanged Python link parses (the baseline for the refusals below)")
    func baseline() throws {
        #expect(try BookmarkLink.parse(try link("")) == .list(DecodedReadingList(list: Self.small, format: .binary, warnings: [])))
    }

    @Test("bad base64 is refused, naming the character and its position")
    func badBase64() {
        #expect(badLink("bibread://bookmarks?AAAA#BBB") == "bad character \"#\" at position 5 of the link's data")
        #expect(badLink("bibread://bookmarks?AAAAé") == "bad character \"é\" at position 5 of the link's data")
        #expect(badLink("bibread://bookmarks?AA%2") == "bad percent escape at position 3 of the link's data")
        #expect(badLink("bibread://bookmarks?AAAAA") == "the link's data is not valid base64 (5 symbols, one too many or too few)")
        #expect(badLink("bibread://bookmarks?AAAA==AA") == "data after the padding (=) at position 7 of the link's data")
        #expect(badLink("bibread://bookmarks?AAA") == "the link's data is too short (2 bytes) for a length and compressed data")
        #expect(badLink("bibread://bookmarks?") == "the link carries no data")
    }

    @Test("a declared length that is too short or too long is refused")
    func wrongDeclaredLength() throws {
        #expect(badLink(try link("length -= 1")).contains("inflates past its declared length of"))
        let long = badLink(try link("length += 1"))
        #expect(long.contains("fewer than its declared length"))
        #expect(badLink(try link("length = 0")) == "the link declares a length of 0 bytes")
    }

    @Test("truncated, trailing and corrupt compressed data is refused")
    func damagedStreams() throws {
        #expect(badLink(try link("stream = stream[:-6]")).contains("truncated"))
        #expect(badLink(try link("stream = stream[:len(stream) // 2]")).contains("truncated"))
        #expect(badLink(try link("stream = stream + b'garbage'")) == "7 bytes follow the end of the link's compressed data")
        #expect(badLink(try link("stream = stream[:-4] + bytes(4)")).contains("corrupt"))
        #expect(badLink(try link("stream = b'\\x78\\x9c\\xff\\xff' + stream[4:]")).contains("corrupt"))
        #expect(badLink(try link("stream = zlib.compress(b, 9)[2:-4]")).contains("corrupt"))
    }

    @Test("a length over 16 MB is refused before inflating")
    func oversizedDeclaration() throws {
        var message = ""
        let elapsed = try seconds(link("length = 16 * 1024 * 1024 + 1")) { text in message = badLink(text) }
        #expect(message == "the link declares 16777217 bytes, more than the limit of 16777216")
        #expect(elapsed < TestTiming.seconds(1.0))
        var limits = ReadingListLimits()
        limits.maxBytes = 10
        let declared = ReadingListCoder.encode(Self.small, as: .binary).count
        #expect(readingListError { _ = try BookmarkLink.parse(BookmarkLink.make(Self.small), limits: limits) }
                == .limitExceeded("the link declares \(declared) bytes, more than the limit of 10"))
    }

    /// A zlib stream of about 1 GB of zeros (fixed Huffman: a literal, then matches of 258),
    /// built directly so that making it takes no time; `declared` is put in front.
    private func bombLink(declared: String) throws -> String {
        try Python.run("""
            import base64, struct, zlib
            class Bits:
                def __init__(self): self.out = bytearray(); self.acc = 0; self.n = 0
                def put(self, value, count):
                    self.acc |= value << self.n; self.n += count
                    while self.n >= 8:
                        self.out.append(self.acc & 0xFF); self.acc >>= 8; self.n -= 8
                def code(self, code, length):
                    for i in range(length - 1, -1, -1): self.put((code >> i) & 1, 1)
                def flush(self):
                    if self.n: self.out.append(self.acc & 0xFF); self.acc = 0; self.n = 0
            def match(b): b.code(0b11000101, 8); b.code(0, 5)
            def bomb(units):
                head = Bits(); head.put(1, 1); head.put(1, 2); head.code(0x30, 8); match(head)
                unit = Bits()
                for _ in range(8): match(unit)
                tail = Bits(); tail.code(0, 7); tail.flush()
                size = 1 + 258 * (1 + 8 * units)
                adler = ((size % 65521) << 16) | 1
                return size, b'\\x78\\x01' + bytes(head.out) + bytes(unit.out) * units + bytes(tail.out) + struct.pack('>I', adler)
            size, small = bomb(100)
            assert zlib.decompress(small) == bytes(size)
            size, stream = bomb(520200)
            assert size > 1 << 29
            length = \(declared)
            print('bibread://bookmarks?' + base64.b64encode(struct.pack('<I', length) + stream).decode())
            """).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a zip bomb declared as 1 GB is refused before inflating")
    func bombDeclaredLarge() throws {
        var message = ""
        let elapsed = try seconds(bombLink(declared: "size")) { text in message = badLink(text) }
        #expect(message == "the link declares 1073693059 bytes, more than the limit of 16777216")
        #expect(elapsed < TestTiming.seconds(1.0))
    }

    @Test("a zip bomb declared small is refused as soon as it inflates past its length",
          arguments: ["1000", "16 * 1024 * 1024"])
    func bombDeclaredSmall(declared: String) throws {
        var message = ""
        let elapsed = try seconds(bombLink(declared: declared)) { text in message = badLink(text) }
        // The message proves inflating stopped one byte past the declared length; the time
        // bound only catches a regression that would inflate the whole gigabyte first.
        #expect(message.contains("inflates past its declared length of"))
        #expect(elapsed < TestTiming.seconds(4.0))
    }

    @Test("a link whose plist is broken reports the plist's errors")
    func brokenPlistInside() throws {
        let invalid = try Python.run("""
            import base64, plistlib, struct, zlib
            b = plistlib.dumps({'Class': 'Folder', 'Children': [{'Class': 'Bookmark', 'Name': 'x',
                'Reference': {'CiteKey': 'k', 'Page': 'abc'}}]}, fmt=plistlib.FMT_BINARY)
            print('bibread://bookmarks?' + base64.b64encode(struct.pack('<I', len(b)) + zlib.compress(b, 9)).decode())
            """).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(readingListError { _ = try BookmarkLink.parse(invalid) }
                == .invalid([ListProblem(.error, path: "Children[0].Reference.Page", message: "expected a number ≥ 1, found \"abc\"")]))
        #expect(badLink(try link("b = b'{\"Class\": \"Folder\"}'; length = len(b); stream = zlib.compress(b, 9)"))
                == "the link's data is JSON, not a property list")
        #expect(badLink(try link("b = b'hello'; length = len(b); stream = zlib.compress(b, 9)")) == "the link's data is not a property list")
        let xml = try link("b = plistlib.dumps(plistlib.loads(b), fmt=plistlib.FMT_XML); length = len(b); stream = zlib.compress(b, 9)")
        #expect(try BookmarkLink.parse(xml) == .list(DecodedReadingList(list: Self.small, format: .xml, warnings: [])))
    }

    @Test("our links use the padded standard alphabet, percent-encoded, and a level-9 zlib stream")
    func linkShape() throws {
        let link = BookmarkLink.make(Samples.rich)
        let payload = String(link.dropFirst("bibread://bookmarks?".count))
        #expect(!payload.contains("+") && !payload.contains("/") && !payload.contains("="))
        let base64 = payload.replacingOccurrences(of: "%2B", with: "+").replacingOccurrences(of: "%2F", with: "/")
            .replacingOccurrences(of: "%3D", with: "=")
        #expect(base64.count % 4 == 0)
        let data = try #require(Data(base64Encoded: base64))
        let bytes = [UInt8](data)
        let length = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        #expect(length == ReadingListCoder.encode(Samples.rich, as: .binary).count)
        #expect(bytes[4] == 0x78 && bytes[5] == 0xDA)
    }

    @Test("links are recognised in any case, with white space around")
    func recognition() throws {
        let link = BookmarkLink.make(Self.small)
        for text in [link, "  \(link)\n", "BIBREAD://Bookmarks?" + link.dropFirst("bibread://bookmarks?".count),
                     "bibread://bookmarks/?" + link.dropFirst("bibread://bookmarks?".count)] {
            #expect(BookmarkLink.isLink(text))
            #expect(try BookmarkLink.parse(text) == .list(DecodedReadingList(list: Self.small, format: .binary, warnings: [])))
        }
        #expect(BookmarkLink.isLink("bibread://DownloadBookmarks?https://example.org/x"))
        for text in ["", "bibread://", "bibread://bookmarks", "bibread://other?AAAA", "https://bookmarks?AAAA", "bibread:bookmarks?AAAA"] {
            #expect(!BookmarkLink.isLink(text))
        }
        #expect(badLink("https://example.org") == "not a bibread://bookmarks or bibread://downloadbookmarks link")
    }

    @Test("the link text itself is capped")
    func textCap() {
        let text = "bibread://bookmarks?" + String(repeating: "A", count: 2 * BookmarkLink.maxDeclaredLength + 4)
        var message = ""
        let elapsed = seconds { message = badLink(text) }
        #expect(message == "the link's data is \(2 * BookmarkLink.maxDeclaredLength + 4) characters, more than the limit of \(2 * BookmarkLink.maxDeclaredLength)")
        #expect(elapsed < TestTiming.seconds(1.0))
    }

    @Test("download links parse, plain or percent-encoded, and round-trip")
    func downloadLinks() throws {
        #expect(try BookmarkLink.parse("bibread://downloadbookmarks?https://example.org/lists/a%20b.plist")
                == .download(url: "https://example.org/lists/a%20b.plist"))
        #expect(try BookmarkLink.parse("bibread://downloadbookmarks?https%3A%2F%2Fexample.org%2Fx.plist%3Fa%3D1%26b%3D2")
                == .download(url: "https://example.org/x.plist?a=1&b=2"))
        for url in ["https://example.org/x.plist?a=1&b=2#frag", "http://example.org:8080/é/list.bplist", "https://h/a+b%20c"] {
            let made = BookmarkLink.makeDownloadLink(url: url)
            #expect(made.hasPrefix("bibread://downloadbookmarks?https%3A") || made.hasPrefix("bibread://downloadbookmarks?http%3A"))
            #expect(!made.dropFirst("bibread://downloadbookmarks?".count).contains { "?&=#/:+ ".contains($0) })
            #expect(try BookmarkLink.parse(made) == .download(url: url))
        }
    }

    @Test("download links must be http or https with a host, and short", arguments: [
        ("ftp://example.org/x", "the download URL \"ftp://example.org/x\" is not an http or https URL"),
        ("javascript:alert(1)", "the download URL \"javascript:alert(1)\" is not an http or https URL"),
        ("https:///path", "the download URL \"https:///path\" has no host"),
        ("https://exa mple.org", "the download URL \"https://exa mple.org\" contains spaces or control characters"),
        ("", "the link carries no download URL"),
        ("%zz", "the download URL has a bad percent escape"),
    ])
    func badDownloadLinks(url: String, expected: String) {
        #expect(badLink("bibread://downloadbookmarks?" + url) == expected)
    }

    @Test("download URLs over 8 KB are refused")
    func longDownloadURL() {
        let url = "https://example.org/" + String(repeating: "a", count: 8 * 1024)
        #expect(badLink("bibread://downloadbookmarks?" + url) == "the download URL is \(url.utf8.count) bytes, more than the limit of 8192")
    }
}

/// Seconds taken by `body` given `value` (measuring only the body, not making the value).
func seconds<T>(_ value: T, _ body: (T) -> Void) -> Double {
    seconds { body(value) }
}
