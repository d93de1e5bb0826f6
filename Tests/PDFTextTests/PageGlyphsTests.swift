@testable import PDFText
import Testing

/// The text repairs and the layout grid on made-up pages: characters 5 pt wide, 10 pt high.
@Suite("text assembly from character boxes")
struct PageGlyphsTests {
    /// Boxes for `lines`: each line is (text, x, y) with its characters side by side from x; a
    /// newline box (zero width) ends every line but the last.
    static func page(_ lines: [(String, Double, Double)]) -> PageGlyphs {
        var text = ""
        var boxes: [GlyphBox] = []
        for (index, (line, x, y)) in lines.enumerated() {
            var position = x
            for scalar in line.unicodeScalars {
                text.unicodeScalars.append(scalar)
                boxes.append(GlyphBox(x1: position, y1: y, x2: position + 5, y2: y + 10))
                position += 5
            }
            if index < lines.count - 1 {
                text += "\n"
                boxes.append(GlyphBox(x1: position, y1: y + 10, x2: position, y2: y + 10))
            }
        }
        return PageGlyphs(utf8: Array(text.utf8), boxes: boxes)
    }

    @Test func wordsOfTwoBlocksJoinedByPopplerGetASpace() {
        // "Tables" then, far right on the same line, "1": poppler-glib gives "Tables1".
        var glyphs = Self.page([("Tables", 0, 0)])
        let tail = Self.page([("1", 200, 0)])
        glyphs = PageGlyphs(utf8: glyphs.utf8 + tail.utf8, boxes: glyphs.boxes + tail.boxes)
        #expect(glyphs.readingText == "Tables 1")
    }

    @Test func adjacentCharactersStayOneWord() {
        var glyphs = Self.page([("x", 0, 0)])
        // A superscript: smaller, raised, right after.
        glyphs = PageGlyphs(utf8: glyphs.utf8 + Array("2".utf8),
                            boxes: glyphs.boxes + [GlyphBox(x1: 5, y1: -3, x2: 8.5, y2: 4)])
        #expect(glyphs.readingText == "x2")
        // Rotated text: characters stacked, same x.
        let rotated = PageGlyphs(utf8: Array("LIB".utf8), boxes: [
            GlyphBox(x1: 0, y1: 20, x2: 5, y2: 25), GlyphBox(x1: 0, y1: 15, x2: 5, y2: 20), GlyphBox(x1: 0, y1: 10, x2: 5, y2: 15),
        ])
        #expect(rotated.readingText == "LIB")
    }

    @Test func aHyphenatedLineIsJoinedToTheNextLineBelow() {
        #expect(Self.page([("an environ-", 0, 0), ("ment here", 0, 12)]).readingText == "an environment here")
        // The next "line" is in the next column, or far below: not a continuation.
        #expect(Self.page([("an environ-", 0, 0), ("ment here", 300, 0)]).readingText == "an environ-\nment here")
        #expect(Self.page([("an environ-", 0, 0), ("ment here", 0, 100)]).readingText == "an environ-\nment here")
        // A hyphen at the end of the text stays.
        #expect(Self.page([("x-", 0, 0)]).readingText == "x-")
    }

    @Test func boxesThatDoNotMatchTheTextAreIgnored() {
        let glyphs = PageGlyphs(utf8: Array("Tables1".utf8), boxes: [GlyphBox(x1: 0, y1: 0, x2: 5, y2: 10)])
        #expect(glyphs.readingText == "Tables1")
        #expect(glyphs.layoutText == "Tables1")
        #expect(PageGlyphs(utf8: [], boxes: []).readingText.isEmpty)
        #expect(PageGlyphs(utf8: [], boxes: []).layoutText.isEmpty)
    }

    @Test func layoutPlacesColumnsSideBySideAndRowsInOrder() {
        // Two columns, given column by column as poppler reads them.
        let glyphs = Self.page([("left one", 0, 0), ("left two", 0, 12), ("right one", 100, 0), ("right two", 100, 12)])
        #expect(glyphs.layoutText == "left one            right one\nleft two            right two")
        #expect(glyphs.readingText == "left one\nleft two\nright one\nright two")
    }

    @Test func layoutKeepsIndentationAndBlankLines() {
        let glyphs = Self.page([("title", 0, 0), ("indented", 10, 40), ("next", 0, 52)])
        #expect(glyphs.layoutText == "title\n\n\n  indented\nnext")
    }
}
