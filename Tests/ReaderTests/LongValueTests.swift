import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import Reader
@testable import ReaderCore

/// Values without spaces of up to 10 MB (a base64 blob, a pasted list of URLs): wrapping measures
/// each character once, and the details pane lays out only the first screens of a huge value
/// (issue 26, item 5: wrapping measured the whole rest of the word for every line it cut).
@Suite("long values")
struct LongValueTests {
    /// A guard against a hang only, never a speed check: the bounds these tests assert are on work
    /// (characters measured, bytes laid out). A minute was too tight: on the 2-core CI machine the
    /// tmux suites running beside these held the test pool's threads and a 5-second test passed 60 s
    /// of wall time waiting its turn. Work quadratic in 10 MB would take hours, so ten minutes still catches it.
    static let hangGuard = TimeLimitTrait.Duration.minutes(10)

    /// A measure that counts its calls, for the bounds on work (not on time).
    final class CountingMeasure {
        var calls = 0
        func measure(_ character: Character) -> Int {
            calls += 1
            return DisplayWidth.of(character)
        }
    }

    static let wrapInputs: [(name: String, text: String)] = [
        ("20,000 letters without a space", String(repeating: "x", count: 20_000)),
        ("words, then a long word, then words", "a few words " + String(repeating: "AZ09+/", count: 3_000) + " and more words"),
        ("wide characters without a space", String(repeating: "山田", count: 5_000)),
        ("a long word after a line of words, twice", String(repeating: "one two three " + String(repeating: "q", count: 5_000) + " ", count: 2)),
    ]

    @Test("Wrapping measures each character once, however long the word", arguments: wrapInputs.map(\.name))
    func wrapIsLinear(_ name: String) throws {
        let text = try #require(Self.wrapInputs.first { $0.name == name }?.text)
        for width in [1, 7, 80] {
            let counter = CountingMeasure()
            let lines = DisplayWidth.wrap(text, to: width, measure: counter.measure)
            let characters = text.count
            #expect(counter.calls <= characters, "\(name) at \(width) columns: \(counter.calls) characters measured for \(characters)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= max(width, 2) }, "\(name) at \(width): a line wider than the width")
            #expect(lines.joined().filter { $0 != " " } == text.filter { $0 != " " }, "\(name) at \(width): text lost or changed")
        }
    }

    @Test func wrapKeepsItsRules() {
        #expect(DisplayWidth.wrap("one two three four", to: 9) == ["one two", "three", "four"])
        #expect(DisplayWidth.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrap("ab abcdefghij cd", to: 4) == ["ab", "abcd", "efgh", "ij", "cd"])
        #expect(DisplayWidth.wrap("abcdefghij cd", to: 5) == ["abcde", "fghij", "cd"])
        #expect(DisplayWidth.wrap("abcdefg cd", to: 5) == ["abcde", "fg cd"])
        #expect(DisplayWidth.wrap("  spaced   out  ", to: 20) == ["spaced out"])
        #expect(DisplayWidth.wrap("山田太郎", to: 3) == ["山", "田", "太", "郎"])
        #expect(DisplayWidth.wrap("", to: 4) == [""])
        #expect(DisplayWidth.wrap("   ", to: 4) == [""])
    }

    @Test("Cutting a 10 MB value to a column measures only what fits", .timeLimit(Self.hangGuard))
    func truncateStopsEarly() {
        let text = String(repeating: "0123456789", count: 1_000_000)
        let counter = CountingMeasure()
        #expect(DisplayWidth.truncate(text, to: 30, measure: counter.measure) == "01234567890123456789012345678…")
        #expect(counter.calls <= 31, "\(counter.calls) characters measured to cut 10 MB to 30 columns")
    }

    @Test("A 10 MB value wraps into lines that give it back whole, each character measured once", .timeLimit(Self.hangGuard))
    func tenMegabytesWrap() {
        let text = String(repeating: "AZaz09+/", count: 1_250_000)
        let counter = CountingMeasure()
        let lines = DisplayWidth.wrap(text, to: 97, measure: counter.measure)
        #expect(counter.calls <= text.utf8.count)
        #expect(lines.count == (text.utf8.count + 96) / 97)
        #expect(lines.dropLast().allSatisfy { $0.utf8.count == 97 })
        #expect(lines.joined() == text)
    }

    // MARK: - The details pane

    /// A library of one reference whose `field` holds `size` bytes of base64 and no space.
    static func library(field: String, size: Int) -> Library {
        var generator = SeededGenerator(seed: 26_05)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let blob = String(decoding: (0..<size).map { _ in alphabet[Int(generator.next() % 64)] }, as: UTF8.self)
        let title = field == "title" ? "" : "title = {A blob}, "
        return Fixtures.library("@misc{blob2020, author = {Aaronson, Ada}, \(title)year = {2020}, \(field) = {\(blob)}}")
    }

    @Test("The details of a 10 MB field: its first screens and its size, not 10 MB laid out",
          .timeLimit(Self.hangGuard), arguments: ["note", "title", "abstract", "url"])
    func detailsCapAHugeValue(_ field: String) throws {
        let entry = try #require(Self.library(field: field, size: 10_000_000).entries.first)
        for width in [40, 118] {
            let lines = DetailsPane.content(of: entry, width: width, locations: [:]).map(\.text)
            let shown = lines.reduce(0) { $0 + $1.utf8.count }
            #expect(shown < 4 * DetailsPane.valueByteLimit, "\(field) at \(width) columns: \(shown) bytes of lines")
            #expect(lines.count >= DetailsPane.valueByteLimit / width, "\(field) at \(width): \(lines.count) lines: the first screens are shown")
            let notes = lines.filter { $0.contains("… 10.0 MB, first 16 kB shown") }
            #expect(!notes.isEmpty, "\(field) at \(width): no line gives the value's size\n\(lines.suffix(5).joined(separator: "\n"))")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(field) at \(width): a line wider than the pane")
        }
    }

    @Test("A 10 MB value selected: the screen renders with its first lines and size", .timeLimit(Self.hangGuard))
    func screenWithAHugeValue() {
        var harness = ReaderHarness(library: Self.library(field: "note", size: 10_000_000), width: 120, height: 40)
        #expect(harness.screen.contains("A blob"))
        harness.press("l", "G")
        // The details pane is 35 columns wide here: the note may take two lines.
        #expect(harness.screen.contains("… 10.0 MB,") && harness.screen.contains("first 16 kB"), "\(harness.screen)")
    }
}
