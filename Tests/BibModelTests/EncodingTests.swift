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
            "enc.bib:2:12: warning: file is not valid UTF-8 (first bad byte 0xF6 here) and declares no encoding; read as Windows-1252, which its bytes fit best of Windows-1252, ISO-8859-2, Windows-1251 and KOI8-R",
        ])
    }

    /// A file that is neither UTF-8 nor declares its encoding: the one its bytes fit best of
    /// the likely ones (Cyrillic in Windows-1251 or KOI8-R, Central European in ISO-8859-2,
    /// Western in Windows-1252), named in the warning.
    @Test(arguments: [
        ("Windows-1251", "40626f6f6b7b616e64726565762c0a2020617574686f72203d207bc0ede4f0e5e5e22c20c0ebe5eaf1e5e920cde8eaeeebe0e5e2e8f720616e6420cfe5f2f0eee22c20c8e2e0ed7d2c0a20207469746c65203d207bd2e5eef0e8ff20e2e5f0eefff2edeef1f2e5e920e820ece0f2e5ece0f2e8f7e5f1eae0ff20f1f2e0f2e8f1f2e8eae07d2c0a20207075626c6973686572203d207bcde0f3eae07d2c2079656172203d20313938357d0a",
         "Андреев, Алексей Николаевич and Петров, Иван", "Теория вероятностей и математическая статистика"),
        ("KOI8-R", "40626f6f6b7b616e64726565762c0a2020617574686f72203d207be1cec4d2c5c5d72c20e1ccc5cbd3c5ca20eec9cbcfccc1c5d7c9de20616e6420f0c5d4d2cfd72c20e9d7c1ce7d2c0a20207469746c65203d207bf4c5cfd2c9d120d7c5d2cfd1d4cecfd3d4c5ca20c920cdc1d4c5cdc1d4c9dec5d3cbc1d120d3d4c1d4c9d3d4c9cbc17d2c0a20207075626c6973686572203d207beec1d5cbc17d2c2079656172203d20313938357d0a",
         "Андреев, Алексей Николаевич and Петров, Иван", "Теория вероятностей и математическая статистика"),
        ("ISO-8859-2", "40626f6f6b7b706f6c6973682c0a2020617574686f72203d207ba3756b61737a20aff3b3e620616e642050617765b3205772f362656c7d2c0a20207469746c65203d207ba67769ea746f6b727a79736b69653a20476461f1736b2c2057726f63b361772069204b72616bf3777d2c0a20206e6f7465203d207b50f8ed6c69b920be6c75bb6f75e86bfd206bf9f220fa70ec6c20efe162656c736be920f364797d7d0a",
         "Łukasz Żółć and Paweł Wróbel", "Świętokrzyskie: Gdańsk, Wrocław i Kraków"),
        ("Windows-1252", "40626f6f6b7b7765737465726e2c0a2020617574686f72203d207b47f664656c2c204b75727420616e64204dfc6c6c65722c204afc7267656e20616e64204c6566e87672652c2041696de97d2c0a20207469746c65203d207bdc6265722064696520566f6c6c7374e46e6469676b65697420962065696e6520dc62657273696368743a2072e973756de92c206e61ef76652c20636166e97d2c0a20207075626c6973686572203d207bc9646974696f6e7320647520536575696c7d7d0a",
         "Gödel, Kurt and Müller, Jürgen and Lefèvre, Aimé", "Über die Vollständigkeit – eine Übersicht: résumé, naïve, café"),
    ])
    func undeclaredEightBitTextIsReadInTheEncodingItFits(_ encoding: String, _ hex: String, _ author: String, _ title: String) throws {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        let library = parse(bytes)
        let entry = try #require(library.entries.first)
        #expect(entry.raw("author") == author)
        #expect(entry.title == title)
        #expect(library.files[0].source.encoding.rawValue == encoding)
        #expect(library.diagnostics.count == 1)
        #expect(library.diagnostics.first?.description.contains("read as \(encoding), which its bytes fit best") == true,
                "\(library.diagnostics.map(\.description))")
    }

    /// Stray bytes that fit nothing (0x81 twice in a real file of TeX Live's) are no reason to
    /// leave the default.
    @Test func strayBytesKeepWindows1252() throws {
        let bytes = Array("@misc{k, note = {under a mild ".utf8) + [0x81] + Array("gno worst alternative".utf8) + [0x81]
            + Array("h condition}}".utf8)
        let library = parse(bytes)
        #expect(library.files[0].source.encoding == .windows1252)
        #expect(library.entries.count == 1)
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
