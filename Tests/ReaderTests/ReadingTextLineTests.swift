import Foundation
import PDFText
@testable import ReaderCore
import Testing
import BibreadTestSupport

/// `ReadingText.cleanedLine`'s byte path for ASCII lines (issue 31: a dictionary look-up per
/// character was most of `ReadingText.lines` on a page) against the character path.
@Suite("reading text: the ASCII line path against the character path")
struct ReadingTextLineTests {
    @Test func everyCorpusPageLineIsCleanedAlike() throws {
        // Every 5th page of each corpus PDF, reflowed and in reading order.
        var checked = 0
        for name in ["R-exts.pdf", "R-intro.pdf", "biblatex.pdf", "tcolorbox.pdf"] {
            let document = try PDFDocument(path: Fixtures.corpus("pdfs/\(name)").path)
            for page in stride(from: 1, through: document.pageCount, by: 5) {
                for mode in [PageTextMode.reflow, .reading] {
                    let text = try document.text(ofPage: page, mode: mode)
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        #expect(ReadingText.cleanedLine(line) == ReadingText.cleanedLineByCharacters(line), "\(name) p. \(page): \(line.debugDescription)")
                        checked += ReadingText.asciiCleanedLine(line) == nil ? 0 : 1
                    }
                }
            }
        }
        #expect(checked > 10_000)
    }

    @Test func hostileLinesAreCleanedAlike() {
        let pieces = ["a", "Z", "7", " ", "  ", "\t", "\r", "\r\n", "\u{0C}", "\u{08}", "\u{1B}[2J", "\u{7F}", "\u{00}",
                      "\u{85}", "\u{9B}", "ﬁ", "ﬀ", "ﬃ", "e\u{301}", "\u{301}", "é", "🙂", "—", "\u{200B}", "\u{A0}"]
        var generator = SeededGenerator(seed: 3132)
        var lines = ["", " ", "\t\t", "\r", "a\r", "\u{7F}", "x\u{1F}y"]
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 10)
            lines.append((0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        for line in lines {
            #expect(ReadingText.cleanedLine(line[...]) == ReadingText.cleanedLineByCharacters(line[...]), "\(line.debugDescription)")
        }
        #expect(ReadingText.asciiCleanedLine("a\rb"[...]) == nil)
        #expect(ReadingText.asciiCleanedLine("\u{1B}[2J\tx"[...]) == " [2J x")
    }
}
