import BibModel
import BibreadTestSupport
import Testing
@testable import Reader
@testable import ReaderCore

/// The reader shows a hostile .bib as `bibread show` prints it: each control character in a
/// field is `�` (issue 26, item 7; it showed a space, so an escape sequence read as text).
@Suite("control characters in the reader")
struct TerminalTextReaderTests {
    @Test func theListAndTheDetailsShowAMarkForEachControlCharacter() throws {
        var harness = ReaderHarness(library: Fixtures.library(HostileText.library), width: 200, height: 50)
        harness.press("/")
        harness.type("key:evil")
        harness.press("Enter")
        let screen = harness.screen
        #expect(HostileText.controls(in: screen).isEmpty, "\(HostileText.controls(in: screen))")
        let rows = screen.split(separator: "\n")
        #expect(rows.contains { $0.contains("Safe\u{FFFD}]52;c;ZXZpbA==\u{FFFD} title") }, "\(screen)")
        #expect(rows.contains { $0.contains(HostileText.cleanedJournal) }, "\(screen)")
    }
}
