import Foundation
import ReadingList
import Testing

/// Interoperability with an independent implementation: Python's plistlib, zlib and base64.
@Suite("Interop with Python")
struct PythonInteropTests {
    /// Python that builds a link the way the spec describes, from `tree`, then transforms the
    /// base64 text with `transform` (a Python expression over `text`).
    private func pythonLink(tree: String, transform: String = "text") throws -> String {
        try Python.run("""
            import base64, plistlib, struct, zlib
            tree = \(tree)
            b = plistlib.dumps(tree, fmt=plistlib.FMT_BINARY)
            text = base64.b64encode(struct.pack('<I', len(b)) + zlib.compress(b, 9)).decode('ascii')
            print("bibread://bookmarks?" + (\(transform)))
            """).trimmingCharacters(in: .newlines)
    }

    @Test("a link built by Python parses to the expected list")
    func pythonLinkParses() throws {
        let link = try pythonLink(tree: Python.richTree)
        let content = try BookmarkLink.parse(link)
        #expect(content == .list(DecodedReadingList(list: Samples.rich, format: .binary, warnings: [])))
    }

    @Test("Python links in the URL-safe alphabet without padding, percent-encoded, wrapped or form-decoded parse",
          arguments: [
              "text.replace('+', '-').replace('/', '_').rstrip('=')",
              "__import__('urllib.parse').parse.quote(text, safe='')",
              "'\\n'.join(text[i:i + 60] for i in range(0, len(text), 60))",
              "'\\r\\n  '.join(text[i:i + 70] for i in range(0, len(text), 70))",
              "text.replace('+', ' ')",
              "text.rstrip('=')",
          ])
    func pythonLinkVariants(transform: String) throws {
        let link = try pythonLink(tree: Python.richTree, transform: transform)
        guard case .list(let decoded) = try BookmarkLink.parse(link) else {
            Issue.record("not a list")
            return
        }
        #expect(decoded.list == Samples.rich)
    }

    @Test("a link has no '+' left to lose when the sample has one")
    func sampleLinkExercisesPlus() throws {
        // The form-decoding variant above only tests something if the base64 has a '+'.
        let link = try pythonLink(tree: Python.richTree, transform: "str(text.count('+'))")
        let count = Int(link.dropFirst("bibread://bookmarks?".count)) ?? 0
        #expect(count > 0)
    }

    @Test("numbers written as strings or integral reals are accepted")
    func lenientNumbers() throws {
        let link = try pythonLink(tree: """
            {'Class': 'Folder', 'Name': 'N', 'Children': [
              {'Class': 'Bookmark', 'Name': 'b', 'Reference': {'CiteKey': 'k', 'Page': ' 12 ', 'LastPage': 14.0}},
              {'Class': 'Bookmark', 'Name': 'c', 'Reference': {'CiteKey': 'k', 'Page': '7', 'Library': 'L'}}]}
            """)
        guard case .list(let decoded) = try BookmarkLink.parse(link) else {
            Issue.record("not a list")
            return
        }
        #expect(decoded.list.bookmarks.map(\.reference) == [
            PageReference(citeKey: "k", page: 12, lastPage: 14),
            PageReference(citeKey: "k", library: "L", page: 7),
        ])
    }

    @Test("Python decodes our link to the same tree")
    func ourLinkDecodesInPython() throws {
        let link = BookmarkLink.make(Samples.rich)
        let output = try Python.run("""
            import base64, json, plistlib, struct, sys, urllib.parse, zlib
            link = open(sys.argv[1], encoding='utf-8').read()
            assert link.startswith('bibread://bookmarks?'), link[:40]
            raw = base64.b64decode(urllib.parse.unquote(link[len('bibread://bookmarks?'):]), validate=True)
            (length,) = struct.unpack('<I', raw[:4])
            stream = raw[4:]
            assert stream[0] == 0x78 and stream[1] == 0xDA, 'expected a level-9 zlib header'
            body = zlib.decompress(stream)
            assert len(body) == length, (len(body), length)
            assert body.startswith(b'bplist00')
            tree = plistlib.loads(body)
            print(json.dumps(tree, sort_keys=True, ensure_ascii=False))
            print(json.dumps(\(Python.richTree), sort_keys=True, ensure_ascii=False))
            """, input: Array(link.utf8))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 2)
        #expect(lines.first == lines.dropFirst().first)
    }

    @Test("Python's XML and binary plists decode", arguments: ["FMT_XML", "FMT_BINARY"])
    func pythonPlistsDecode(format: String) throws {
        let bytes = try Python.bytes("""
            import base64, plistlib
            print(base64.b64encode(plistlib.dumps(\(Python.richTree), fmt=plistlib.\(format))).decode())
            """)
        let decoded = try ReadingListCoder.decode(bytes)
        #expect(decoded.format == (format == "FMT_XML" ? .xml : .binary))
        var expected = Samples.rich
        if format == "FMT_XML" {
            // plistlib writes a carriage return as is, and XML reads CR LF as LF (our writer
            // escapes it as &#13; instead, see XMLPlistWriter).
            expected.root.children[1] = .notemark(Notemark(name: "Todo ✅", text: "Read chapters 3 & 4 <soon>\nline two\ttab\nCRLF"))
        }
        #expect(decoded.list == expected)
    }

    @Test("Python's JSON of the same shape decodes")
    func pythonJSONDecodes() throws {
        let bytes = try Python.bytes("""
            import base64, json
            print(base64.b64encode(json.dumps(\(Python.richTree), indent='\\t').encode()).decode())
            """)
        #expect(try ReadingListCoder.decode(bytes).list == Samples.rich)
    }

    @Test("Python loads our plists and JSON to the same tree", arguments: ReadingListFormat.allCases)
    func ourOutputLoadsInPython(format: ReadingListFormat) throws {
        let load = format == .json ? "json.loads(data.decode('utf-8'))" : "plistlib.loads(data)"
        let output = try Python.run("""
            import json, plistlib, sys
            data = open(sys.argv[1], 'rb').read()
            tree = \(load)
            print(json.dumps(tree, sort_keys=True, ensure_ascii=False))
            print(json.dumps(\(Python.richTree), sort_keys=True, ensure_ascii=False))
            """, input: ReadingListCoder.encode(Samples.rich, as: format))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 2)
        #expect(lines.first == lines.dropFirst().first)
    }

    @Test("Python loads our large binary plist (two-byte references, extended lengths)")
    func largeBinaryLoadsInPython() throws {
        let output = try Python.run("""
            import plistlib, sys
            tree = plistlib.loads(open(sys.argv[1], 'rb').read())
            marks = tree['Children'][0]['Children']
            print(len(marks), marks[599]['Name'], marks[599]['Reference']['LastPage'], marks[599]['Notes'], len(tree['Name']))
            """, input: ReadingListCoder.encode(Samples.large, as: .binary))
        #expect(output == "600 Bookmark 600 é 602 ['n600'] 300\n")
    }
}
