import BibModel
import Testing
import BibreadTestSupport

@Suite("text encodings")
struct EncodingTests {
    private func parse(_ bytes: [UInt8]) -> Library {
        Library.parse([(path: "enc.bib", bytes: bytes)])
    }

    @Test func utf8WithByteOrderMark() throws {
        let library = parse([0xEF, 0xBB, 0xBF] + Array("@misc{k, title = {Gödel}}".utf8))
        #expect(try #require(library.entries.first).title == "Gödel")
        #expect(library.diagnostics.isEmpty)
        #expect(library.files[0].source.encoding == .utf8)
    }

    @Test func invalidUTF8IsReadAsWindows1252WithOneWarning() throws {
        // "G\xF6del" and a Windows-1252 en dash (0x96).
        let bytes = Array("@misc{k,\n title = {G".utf8) + [0xF6] + Array("del}, pages = {1".utf8) + [0x96] + Array("2}}".utf8)
        let library = parse(bytes)
        let entry = try #require(library.entries.first)
        #expect(entry.title == "Gödel")
        #expect(entry.decoded("pages") == "1–2")
        #expect(library.diagnostics.map(\.description) == [
            "enc.bib:2:12: warning: file is not valid UTF-8 (first bad byte 0xF6 here); read as Windows-1252",
        ])
    }

    @Test func jabRefEncodingHeaderIsHonoured() throws {
        let bytes = Array("% Encoding: ISO8859_1\n@misc{k, title = {Caf".utf8) + [0xE9] + Array("}}".utf8)
        let library = parse(bytes)
        #expect(try #require(library.entries.first).title == "Café")
        #expect(library.diagnostics.isEmpty, "a declared encoding is not a problem")
        #expect(library.files[0].source.encoding == .latin1)
    }

    @Test func bibDeskEncodingHeaderIsHonoured() throws {
        let bytes = Array("%% Saved with string encoding Western (Mac OS Roman)\n@misc{k, title = {Caf".utf8) + [0x8E] + Array("}}".utf8)
        let library = parse(bytes)
        #expect(try #require(library.entries.first).title == "Café")
        #expect(library.files[0].source.encoding == .macRoman)
    }

    @Test func declaredUTF8ThatIsNotFallsBackWithAWarning() throws {
        let bytes = Array("% Encoding: UTF-8\n@misc{k, title = {Caf".utf8) + [0xE9] + Array("}}".utf8)
        let library = parse(bytes)
        #expect(try #require(library.entries.first).title == "Café")
        #expect(library.diagnostics.first?.message.hasPrefix("file declares UTF-8 but is not valid UTF-8") == true)
    }

    /// Real biber test files whose only encoding hint is an Emacs `coding:` line.
    static let emacsDeclared: [(String, TextEncoding, String)] = [
        ("t_tdata_encoding1.bib", .latin9, "Šome title"),
        ("t_tdata_encoding3.bib", .latin1, "Söme title"),
        ("t_tdata_encoding4.bib", .latin2, "Żome title"),
    ]

    @Test(arguments: emacsDeclared)
    func realEmacsDeclaredFilesDecode(_ name: String, _ encoding: TextEncoding, _ title: String) throws {
        let library = Fixtures.library(at: Fixtures.corpus("bib/biber/\(name)"))
        #expect(library.files[0].source.encoding == encoding)
        #expect(library.entries.map(\.title).contains(title))
        #expect(library.diagnostics.isEmpty)
    }
}
