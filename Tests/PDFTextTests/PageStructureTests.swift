@testable import PDFText
import Testing

/// `PageGlyphs.reflowText` on made-up pages: characters 5 pt wide and 10 pt high, lines 12 pt
/// apart, in named fonts ("Roman" unless said otherwise).
@Suite("reflow text from boxes and fonts")
struct PageStructureTests {
    struct Line {
        var text: String
        var x: Double
        var y: Double
        var font = "ABCDEF+CMR10"
        var size = 10.0
    }

    /// Boxes and font runs for `lines`; a line feed (a zero-width box) ends every line but the
    /// last. Characters of a font larger than 10 pt are wider and taller in proportion.
    static func page(_ lines: [Line]) -> PageGlyphs {
        var text = ""
        var boxes: [GlyphBox] = []
        var fonts: [FontRun] = []
        for (index, line) in lines.enumerated() {
            var position = line.x
            let scale = line.size / 10
            let first = boxes.count
            for scalar in line.text.unicodeScalars {
                text.unicodeScalars.append(scalar)
                boxes.append(GlyphBox(x1: position, y1: line.y, x2: position + 5 * scale, y2: line.y + 10 * scale))
                position += 5 * scale
            }
            fonts.append(FontRun(name: line.font, size: line.size, first: first, last: boxes.count - 1))
            if index < lines.count - 1 {
                text += "\n"
                boxes.append(GlyphBox(x1: position, y1: line.y + 10, x2: position, y2: line.y + 10))
            }
        }
        return PageGlyphs(utf8: Array(text.utf8), boxes: boxes, fonts: fonts)
    }

    static let mono = "XYZABC+CMTT10"

    @Test func fontNamesTellMonospaceAndBold() {
        for name in ["ABCDEF+CMTT10", "CMSLTT10", "LMMono10-Regular", "LMMonoLt10-Bold", "CourierNewPSMT", "Courier", "NimbusMonoPS-Regular", "NimbusMonL-Regu", "txtt",
                     "SourceCodePro-Regular", "Inconsolata-zi4r", "DejaVuSansMono"] {
            #expect(FontTraits(fontNamed: name).isMonospace, "\(name)")
        }
        for name in ["ABCDEF+CMR10", "CMBX12", "LMRoman10-Regular", "LinLibertineO", "Helvetica-Bold", "LMSans10-Regular",
                     "MonotypeCorsiva", "ArialUnicodeMS", "NimbusRomNo9L-Regu"] {
            #expect(!FontTraits(fontNamed: name).isMonospace, "\(name)")
        }
        for name in ["CMBX12", "ABCDEF+CMB10", "LMRoman10-Bold", "Helvetica-Bold", "LinBiolinumOB", "CourierNewPS-BoldMT"] {
            #expect(FontTraits(fontNamed: name).isBold, "\(name)")
        }
        for name in ["CMR10", "CMTT10", "LMRoman10-Regular", "LinBiolinumO", "LinLibertineOI"] {
            #expect(!FontTraits(fontNamed: name).isBold, "\(name)")
        }
    }

    @Test func linesOfAParagraphAreJoinedAndAShortLineEndsIt() {
        let glyphs = Self.page([
            Line(text: "The first paragraph goes on and on", x: 0, y: 0),
            Line(text: "until it ends here.", x: 0, y: 12),
            Line(text: "The second one is also a long line", x: 0, y: 24),
            Line(text: "and so on.", x: 0, y: 36),
        ])
        #expect(glyphs.reflowText == "The first paragraph goes on and on until it ends here.\n\nThe second one is also a long line and so on.")
    }

    /// Ragged-right text (tex-tour.pdf): a line far short of the right edge goes on when the
    /// next line's first word would not have fitted after it.
    @Test func raggedRightLinesAreJoinedWhenTheNextWordWouldNotFit() {
        let glyphs = Self.page([
            Line(text: "In 1976 Knuth received the galley proofs of the second edition of the second", x: 0, y: 0),
            Line(text: "hot metal on a Monotype machine, but the publisher had moved to", x: 0, y: 12),
            Line(text: "phototypesetting, and the new proofs looked, to Knuth's eye, dreadful.", x: 0, y: 24),
            Line(text: "It did.", x: 0, y: 36),
        ])
        #expect(glyphs.reflowText == "In 1976 Knuth received the galley proofs of the second edition of the second "
                + "hot metal on a Monotype machine, but the publisher had moved to "
                + "phototypesetting, and the new proofs looked, to Knuth's eye, dreadful.\n\nIt did.")
    }

    /// incompleteness.pdf: an abstract set narrower than the body text below it, with no gap
    /// between them, was cut into paragraphs at every line.
    @Test func aNarrowerPartOfABlockKeepsItsParagraphs() {
        let glyphs = Self.page([
            Line(text: "In 1931 Kurt Godel showed that any consistent formal", x: 30, y: 0),
            Line(text: "system strong enough to express elementary arithmetic", x: 30, y: 12),
            Line(text: "contains statements it can neither prove nor refute,", x: 30, y: 24),
            Line(text: "and more.", x: 30, y: 36),
            Line(text: "Keywords: logic", x: 30, y: 48),
            Line(text: "At the beginning of the twentieth century, mathematics seemed to be in danger as", x: 0, y: 60),
            Line(text: "paradoxes were discovered in the foundations of set theory, most famously Russell.", x: 0, y: 72),
        ])
        #expect(glyphs.reflowText == """
            In 1931 Kurt Godel showed that any consistent formal system strong enough to express elementary \
            arithmetic contains statements it can neither prove nor refute, and more.

            Keywords: logic

            At the beginning of the twentieth century, mathematics seemed to be in danger as paradoxes were \
            discovered in the foundations of set theory, most famously Russell.
            """)
    }

    @Test func hyphenatedWordsAreJoined() {
        #expect(Self.page([Line(text: "an environ-", x: 0, y: 0), Line(text: "ment here", x: 0, y: 12)]).reflowText == "an environment here")
        // Before a capital the hyphen stays ("S-Plus", "Jean-Paul").
        #expect(Self.page([Line(text: "the Jean-", x: 0, y: 0), Line(text: "Paul text", x: 0, y: 12)]).reflowText == "the Jean-Paul text")
    }

    /// A code line with a comment beside it in another font (poppler gives the comment as a line
    /// of its own) swallowed the next code line.
    @Test func codeLinesStayLinesWithTheirCommentsAndIndentation() {
        let glyphs = Self.page([
            Line(text: "In this case we need a subscript array as in this", x: 0, y: 0),
            Line(text: "> x <- array(1:20)", x: 20, y: 14, font: Self.mono),
            Line(text: "# Generate an array.", x: 140, y: 14),
            Line(text: "> x[i]", x: 20, y: 26, font: Self.mono),
            Line(text: "[1] 9 6 3", x: 30, y: 38, font: Self.mono),
            Line(text: "Negative indices are not allowed in index matrices.", x: 0, y: 52),
        ])
        #expect(glyphs.reflowText == """
            In this case we need a subscript array as in this

            > x <- array(1:20)      # Generate an array.
            > x[i]
              [1] 9 6 3

            Negative indices are not allowed in index matrices.
            """)
    }

    /// "References" was merged into the paragraph before it.
    @Test func aHeadingStandsAlone() {
        let glyphs = Self.page([
            Line(text: "the last line of a paragraph that is full", x: 0, y: 0),
            Line(text: "References", x: 0, y: 12, font: "CMBX12", size: 12),
            Line(text: "The first reference is this one here.", x: 0, y: 28),
        ])
        #expect(glyphs.reflowText == "the last line of a paragraph that is full\n\nReferences\n\nThe first reference is this one here.")
        // A heading on two lines is one heading.
        let twoLines = Self.page([
            Line(text: "A long title", x: 0, y: 0, font: "LMRoman12-Bold", size: 14),
            Line(text: "on two lines", x: 0, y: 16, font: "LMRoman12-Bold", size: 14),
            Line(text: "Text.", x: 0, y: 34),
        ])
        #expect(twoLines.reflowText == "A long title on two lines\n\nText.")
    }

    /// On a page mostly of small print (code, examples side by side), the prose around it is
    /// the body text, not a run of headings joined together.
    @Test func theBodySizeComesFromTheLongLinesOfProse() {
        var lines = [
            Line(text: "/tcb/lower separated=true|false", x: 0, y: 0, font: "LMMono10-Regular", size: 11),
            Line(text: "(default true)", x: 300, y: 0, font: "LMRoman10-Regular", size: 11),
            Line(text: "If set to true, the lower part is visually separated from", x: 20, y: 14, size: 11),
            Line(text: "the upper part.", x: 20, y: 28, size: 11),
        ]
        for row in 0..<8 {
            lines.append(Line(text: "This is the upper part.", x: 40, y: 50 + 10 * Double(row), size: 9))
            lines.append(Line(text: "This is the upper part.", x: 200, y: 50 + 10 * Double(row), size: 9))
        }
        #expect(Self.page(lines).reflowText.hasPrefix("""
            /tcb/lower separated=true|false (default true)
            If set to true, the lower part is visually separated from the upper part.
            This is the upper part. This is the upper part.

            """))
    }

    @Test func leaderLinesListItemsAndDefinitionsStayLines() {
        let contents = Self.page([
            Line(text: "1.1 The R environment . . . . . . . 2", x: 0, y: 0),
            Line(text: "1.2 Related software . . . . . . . . 2", x: 0, y: 12),
            Line(text: "1.3 R and statistics . . . . . . . . 3", x: 0, y: 24),
        ])
        #expect(contents.reflowText == "1.1 The R environment . . . . . . . 2\n1.2 Related software . . . . . . . . 2\n1.3 R and statistics . . . . . . . . 3")
        let list = Self.page([
            Line(text: "we wish to do the following things now:", x: 0, y: 0),
            Line(text: "• Extract elements as a vector and", x: 10, y: 12),
            Line(text: "then go on with the item", x: 20, y: 24),
            Line(text: "• Replace these entries by zeroes.", x: 10, y: 36),
        ])
        #expect(list.reflowText == "we wish to do the following things now:\n• Extract elements as a vector and then go on with the item\n• Replace these entries by zeroes.")
        // A term and its definition, columns apart: each term is a line.
        let definitions = Self.page([
            Line(text: "x", x: 10, y: 0, font: Self.mono),
            Line(text: "a numeric vector of values", x: 60, y: 0),
            Line(text: "na.rm", x: 10, y: 12, font: Self.mono),
            Line(text: "whether to remove missing values", x: 60, y: 12),
        ])
        #expect(definitions.reflowText == "x a numeric vector of values\nna.rm whether to remove missing values")
    }

    /// Font runs are poppler's: runs past the end of the text, or backwards, are ignored.
    @Test func fontRunsOutsideTheTextAreIgnored() {
        let page = Self.page([Line(text: "abc", x: 0, y: 0)])
        let glyphs = PageGlyphs(utf8: page.utf8, boxes: page.boxes, fonts: [
            FontRun(name: "CMTT10", size: 10, first: 5, last: 10), FontRun(name: "CMTT10", size: 10, first: 2, last: 1),
            FontRun(name: "CMTT10", size: 10, first: -4, last: -1),
        ])
        #expect(glyphs.reflowText == "abc")
    }

    /// biblatex's options: a term on its own line, its description indented below it; the
    /// description ran into the term, and the next term into the description before it.
    @Test func aTermAboveItsDescriptionStaysApart() {
        let glyphs = Self.page([
            // The term in a typewriter font, its argument in italics.
            Line(text: "maxsortnames=", x: 0, y: 0, font: "CourierNewPSMT"),
            Line(text: "<integer>", x: 65, y: 0, font: "LinLibertineOI"),
            Line(text: "Similar to maxnames but affects only the names seen in", x: 30, y: 14),
            Line(text: "sorting; set this after maxbibnames when it is set, as", x: 30, y: 26),
            Line(text: "the default of this option is maxbibnames.", x: 30, y: 38),
            Line(text: "\\map[", x: 0, y: 52, font: "CourierNewPSMT"),
            Line(text: "<options>]{<restrictions,steps>}", x: 25, y: 52, font: "LinLibertineOI"),
            Line(text: "A container for an ordered set of map steps.", x: 30, y: 66),
        ])
        #expect(glyphs.reflowText == """
            maxsortnames=<integer>

            Similar to maxnames but affects only the names seen in sorting; set this after maxbibnames when \
            it is set, as the default of this option is maxbibnames.

            \\map[<options>]{<restrictions,steps>}

            A container for an ordered set of map steps.
            """)
    }

    /// R-intro's contents: poppler reads the column of section numbers first, then the column of
    /// titles, so "2.1" and its title ended up far apart.
    @Test func aColumnOfNumbersIsPairedWithItsLinesOfText() {
        let glyphs = Self.page([
            Line(text: "2 Simple manipulations . . . . . . . 8", x: 0, y: 0),
            Line(text: "2.1", x: 20, y: 12),
            Line(text: "2.2", x: 20, y: 24),
            Line(text: "Vectors and assignment . . . . . . 8", x: 45, y: 12),
            Line(text: "Vector arithmetic . . . . . . . . 9", x: 45, y: 24),
            Line(text: "3 Objects, their modes . . . . . . 14", x: 0, y: 36),
        ])
        #expect(glyphs.reflowText == """
            2 Simple manipulations . . . . . . . 8
            2.1 Vectors and assignment . . . . . . 8
            2.2 Vector arithmetic . . . . . . . . 9
            3 Objects, their modes . . . . . . 14
            """)
    }

    @Test func listMarkers() {
        for word in ["•", "–", "1.", "12)", "(3)", "[4]", "a.", "(b)", "iv)", "(A)", "B)"] {
            #expect(TextLine.isListMarker(word), "\(word)")
        }
        // An author's initial, words, numbers with units.
        for word in ["J.", "The", "e.g.", "10pt", "(see", "12345.", "ABC)"] {
            #expect(!TextLine.isListMarker(word), "\(word)")
        }
    }

    @Test func withoutBoxesTheTextIsPopplers() {
        let glyphs = PageGlyphs(utf8: Array("one\ntwo".utf8), boxes: [])
        #expect(glyphs.reflowText == "one\ntwo")
    }
}
