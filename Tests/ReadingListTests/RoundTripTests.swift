import Foundation
import ReadingList
import Testing

@Suite("Round trips")
struct RoundTripTests {
    @Test("every format gives the rich list back", arguments: ReadingListFormat.allCases)
    func richRoundTrip(format: ReadingListFormat) throws {
        let bytes = ReadingListCoder.encode(Samples.rich, as: format)
        #expect(ReadingListCoder.detectFormat(bytes) == format)
        let decoded = try ReadingListCoder.decode(bytes)
        #expect(decoded.format == format)
        #expect(decoded.list == Samples.rich)
        #expect(decoded.warnings.isEmpty)
    }

    @Test("a list without page notes drops them and round-trips", arguments: ReadingListFormat.allCases)
    func withoutNotes(format: ReadingListFormat) throws {
        var list = Samples.rich
        list.includesPageNotes = false
        let decoded = try ReadingListCoder.decode(ReadingListCoder.encode(list, as: format))
        #expect(decoded.list == Samples.withoutNotes(Samples.rich))
        #expect(decoded.list.pageNoteCount == 0)
        #expect(decoded.warnings.isEmpty)
        #expect(!String(decoding: ReadingListCoder.encode(list, as: .json), as: UTF8.self).contains("Notes"))
    }

    @Test("a large list (two-byte references, long strings) round-trips", arguments: ReadingListFormat.allCases)
    func largeRoundTrip(format: ReadingListFormat) throws {
        let decoded = try ReadingListCoder.decode(ReadingListCoder.encode(Samples.large, as: format))
        #expect(decoded.list == Samples.large)
        #expect(decoded.list.bookmarks.count == 600)
    }

    @Test("links round-trip", arguments: ["rich", "without notes", "large"])
    func linkRoundTrip(sample: String) throws {
        let list = switch sample {
        case "rich": Samples.rich
        case "large": Samples.large
        default: Samples.withoutNotes(Samples.rich)
        }
        let link = BookmarkLink.make(list)
        #expect(link.hasPrefix("bibread://bookmarks?"))
        #expect(BookmarkLink.isLink(link))
        let payload = link.dropFirst("bibread://bookmarks?".count)
        #expect(payload.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "%") })
        #expect(try BookmarkLink.parse(link) == .list(DecodedReadingList(list: list, format: .binary, warnings: [])))
    }

    @Test("an empty root folder round-trips", arguments: ReadingListFormat.allCases)
    func emptyRoot(format: ReadingListFormat) throws {
        let list = ReadingList(root: BookmarkFolder(name: ""))
        #expect(try ReadingListCoder.decode(ReadingListCoder.encode(list, as: format)).list == list)
    }

    @Test("encoding is deterministic", arguments: ReadingListFormat.allCases)
    func deterministic(format: ReadingListFormat) {
        #expect(ReadingListCoder.encode(Samples.rich, as: format) == ReadingListCoder.encode(Samples.rich, as: format))
    }

    @Test("the XML output looks like Apple's")
    func xmlShape() {
        let list = ReadingList(root: BookmarkFolder(name: "R & D", children: [
            .bookmark(Bookmark(name: "a<b", reference: PageReference(citeKey: "k", page: 2))),
            .folder(BookmarkFolder(name: "F")),
        ]))
        let xml = String(decoding: ReadingListCoder.encode(list, as: .xml), as: UTF8.self)
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>Class</key>
            \t<string>Folder</string>
            \t<key>Name</key>
            \t<string>R &amp; D</string>
            \t<key>Children</key>
            \t<array>
            \t\t<dict>
            \t\t\t<key>Class</key>
            \t\t\t<string>Bookmark</string>
            \t\t\t<key>Name</key>
            \t\t\t<string>a&lt;b</string>
            \t\t\t<key>Reference</key>
            \t\t\t<dict>
            \t\t\t\t<key>Class</key>
            \t\t\t\t<string>Reference</string>
            \t\t\t\t<key>CiteKey</key>
            \t\t\t\t<string>k</string>
            \t\t\t\t<key>Page</key>
            \t\t\t\t<integer>2</integer>
            \t\t\t</dict>
            \t\t</dict>
            \t\t<dict>
            \t\t\t<key>Class</key>
            \t\t\t<string>Folder</string>
            \t\t\t<key>Name</key>
            \t\t\t<string>F</string>
            \t\t\t<key>Children</key>
            \t\t\t<array/>
            \t\t</dict>
            \t</array>
            </dict>
            </plist>

            """)
    }

    @Test("the JSON output is pretty, UTF-8 and in a stable key order")
    func jsonShape() {
        let list = ReadingList(root: BookmarkFolder(name: "é \"q\"", children: [
            .notemark(Notemark(name: "n", text: "a\nb")),
        ]), includesPageNotes: true)
        let json = String(decoding: ReadingListCoder.encode(list, as: .json), as: UTF8.self)
        #expect(json == """
            {
              "Class": "Folder",
              "Name": "é \\"q\\"",
              "IncludesPageNotes": "YES",
              "Children": [
                {
                  "Class": "Notemark",
                  "Name": "n",
                  "Text": "a\\nb"
                }
              ]
            }

            """)
    }

    @Test("the binary output has a valid header and trailer")
    func binaryShape() {
        let bytes = ReadingListCoder.encode(Samples.rich, as: .binary)
        #expect(Array(bytes.prefix(8)) == Array("bplist00".utf8))
        let trailer = Array(bytes.suffix(32))
        let count = trailer[8..<16].reduce(0) { $0 << 8 | Int($1) }
        let table = trailer[24..<32].reduce(0) { $0 << 8 | Int($1) }
        #expect(table + count * Int(trailer[6]) == bytes.count - 32)
        #expect(trailer[16..<24].allSatisfy { $0 == 0 })
    }
}
