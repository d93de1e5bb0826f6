@testable import PDFText
import Testing
import BibreadTestSupport

/// `FontTraits`' byte-level path for ASCII font names (issue 31: the reflow of one page read
/// each of its fonts' names through String searches, ~300 k instructions a font) against the
/// straightforward one, character by character.
@Suite("font traits: the ASCII path against the character path")
struct FontTraitsTests {
    @Test func everyCorpusFontNameReadsAlike() throws {
        // The fonts of every 7th page of each corpus PDF.
        var names = Set<String>()
        for pdf in corpusPDFNames {
            let document = try PDFDocument(path: corpusPDF(pdf))
            for page in stride(from: 1, through: document.pageCount, by: 7) {
                names.formUnion(try document.glyphs(ofPage: page, withFonts: true).fonts.map(\.name))
            }
        }
        #expect(names.count > 12, "\(names)")
        for font in names {
            #expect(FontTraits.asciiTraits(ofFontNamed: font) != nil, "\(font.debugDescription) is not ASCII")
            #expect(FontTraits(fontNamed: font) == FontTraits(fontNamedByCharacters: font), "\(font.debugDescription)")
        }
    }

    @Test func knownFontsKeepTheirTraits() {
        let cases: [(String, FontTraits)] = [
            ("ABCDEF+CMTT10", FontTraits(isMonospace: true, isBold: false)),
            ("LMMono10-Regular", FontTraits(isMonospace: true, isBold: false)),
            ("CourierNewPS-BoldMT", FontTraits(isMonospace: true, isBold: true)),
            ("LinBiolinumOB", FontTraits(isMonospace: false, isBold: true)),
            ("LinLibertineOBI", FontTraits(isMonospace: false, isBold: true)),
            ("MonotypeCorsiva", FontTraits(isMonospace: false, isBold: false)),
            ("ArialUnicodeMS", FontTraits(isMonospace: false, isBold: false)),
            ("XYZ+CMBX12", FontTraits(isMonospace: false, isBold: true)),
            ("Times-Roman", FontTraits(isMonospace: false, isBold: false)),
        ]
        for (name, traits) in cases {
            #expect(FontTraits(fontNamed: name) == traits, "\(name)")
            #expect(FontTraits(fontNamedByCharacters: name) == traits, "\(name)")
        }
    }

    @Test func hostileFontNamesReadAlike() {
        // Pieces of the words looked for, split and joined across '+', '-', digits, case, CR LF
        // and non-ASCII (which takes the character path).
        let pieces = ["+", "-", "--", "Mono", "mono", "MONOTYPE", "type", "mon", "o", "TT", "tt", "t", "10", "0", "9",
                      "Lin", "lin", "OB", "ob", "I", "i", "CMB", "cm", "b", "X", "Bold", "BLACK", "heavy", "Semi", "demi",
                      "Courier", "Nimbus", "typewriter", "consol", "menlo", "SourceCode", "FiraCode", "cascadia",
                      "\r\n", "\r", "\n", " ", "é", "ＴＴ", "\u{0301}", "①", "٣", ""]
        var generator = SeededGenerator(seed: 3131)
        var names = ["", "+", "-", "--", "+-", "-+", "abc+", "+abc", "a+b+c", "monotypemono", "monomonotypetype", "tt10",
                     "-tt", "--tt1", "lin-ob", "linob-x", "lin9ob", "linob9", "cmb-", "-cmb", "ABC+-CMB10"]
        for _ in 0..<30_000 {
            let count = Int(generator.next() % 7)
            names.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        for name in names {
            #expect(FontTraits(fontNamed: name) == FontTraits(fontNamedByCharacters: name), "\(name.debugDescription)")
        }
    }
}
