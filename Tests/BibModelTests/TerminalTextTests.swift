import BibModel
import Testing

/// `TerminalText`, the one function every printer and the reader clean text with (issue 26,
/// item 7).
@Suite("terminal text")
struct TerminalTextTests {
    @Test func textWithLinesKeepsTabsAndLineFeedsAndMarksTheOtherControls() {
        #expect(TerminalText.cleaned("a\tb\nc") == "a\tb\nc")
        #expect(TerminalText.cleaned("line\r\nnext\r") == "line\nnext ")
        #expect(TerminalText.cleaned("\u{1B}]0;t\u{07}\u{0}\u{8}x\u{7F}\u{0B}\u{0C}") == "\u{FFFD}]0;t\u{FFFD}\u{FFFD}\u{FFFD}x\u{FFFD}  ")
        // C1, written as UTF-8 (C2 80 to C2 9F); the letters of C2 A0 and up stay.
        #expect(TerminalText.cleaned("\u{80}\u{9B}31m\u{9F}\u{A0}§©é") == "\u{FFFD}\u{FFFD}31m\u{FFFD}\u{A0}§©é")
    }

    @Test func aLineTurnsTabsAndLineEndsIntoSpaces() {
        #expect(TerminalText.cleanedLine("a\tb\nc\r\nd\re\u{1B}f") == "a b c d e\u{FFFD}f")
    }

    @Test func cleanTextIsReturnedAsItIs() {
        let text = String(repeating: "Plain text, with tabs\tand\nlines; Ünïcödé ¶ and 本. ", count: 50)
        #expect(TerminalText.cleaned(text) == text)
        var copy = text
        #expect(copy.withUTF8 { TerminalText.cleanedUTF8($0) } == nil, "nothing to replace: no copy")
    }

    /// Eight bytes are checked at a time: a control in every position, and a C1 control whose
    /// two bytes lie in two words, are found.
    @Test func everyPositionIsChecked() {
        for length in 1...24 {
            for position in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                bytes[position] = 0x1B
                let cleaned = bytes.withUnsafeBufferPointer { TerminalText.cleanedUTF8($0) }
                var expected = bytes
                expected.replaceSubrange(position...position, with: [0xEF, 0xBF, 0xBD])
                #expect(cleaned == expected, "ESC at \(position) of \(length)")
                guard position + 1 < length else { continue }
                bytes[position] = 0xC2
                bytes[position + 1] = 0x9D
                let c1 = bytes.withUnsafeBufferPointer { TerminalText.cleanedUTF8($0) }
                var expectedC1 = bytes
                expectedC1.replaceSubrange(position...(position + 1), with: [0xEF, 0xBF, 0xBD])
                #expect(c1 == expectedC1, "U+009D at \(position) of \(length)")
            }
        }
    }

    @Test func bytesThatAreNotUTF8AreLeftAsTheyAre() {
        let bytes: [UInt8] = [0x61, 0xC2, 0x41, 0xFF, 0xC2]
        #expect(bytes.withUnsafeBufferPointer { TerminalText.cleanedUTF8($0) } == nil)
    }
}
