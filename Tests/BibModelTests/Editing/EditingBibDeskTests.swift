import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// Edits of a library BibDesk wrote (the bundled sample, written as BibDesk writes: a tab before
/// each field, `Name = {value}`, the last field closed by the entry's `}`), in BibDesk's fields.
@Suite("editing: BibDesk conventions")
struct EditingBibDeskTests {
    static var sample: URL { Fixtures.samples.appendingPathComponent("library.bib") }

    @Test func theSampleIsBibDesks() throws {
        let fixture = try EditingFixture(Self.sample)
        #expect(fixture.editor.conventions.dialect == .bibDesk)
        #expect(fixture.editor.conventions.evidence?.contains("BibDesk") == true)
        #expect(fixture.editor.conventions.keepsModificationDate)
        // The sample separates keywords with ", " (BibDesk's own default is "; ").
        #expect(fixture.editor.conventions.keywordSeparator == ", ")
    }

    @Test func markingReadAddsReadInItsSortedPlaceAndUpdatesDateModified() throws {
        let fixture = try EditingFixture(Self.sample)
        let result = try fixture.edit("lamport1994latex", .markRead(true))
        let diff = fixture.diff(result)
        #expect(diff.removed == ["\tDate-Modified = {2022-04-02 16:41:07 +0200},"])
        #expect(diff.added == ["\tDate-Modified = {2024-03-01 10:22:33 +0100},", "\tRead = {1},"])
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.contains("\tRating = {4},\n\tRead = {1},\n\tTitle = {{\\LaTeX}"))
        #expect(result.changes.map(\.name) == ["Read", "Date-Modified"])
    }

    @Test func markingUnreadWritesZeroAsBibDeskDoes() throws {
        let fixture = try EditingFixture(Self.sample)
        let result = try fixture.edit("knuth1984texbook", .markRead(false))
        #expect(fixture.diff(result).added.contains("\tRead = {0},"))
        // Unread already: nothing changes, not even the date.
        let again = try fixture.edit("lamport1994latex", .markRead(false))
        #expect(again.isUnchanged)
        #expect(again.bytes == fixture.bytes)
    }

    @Test func aNewFieldIsAlignedWithItsNeighboursEvenAfterALongerOne() throws {
        // Aligned on `keywords`, with a `date-modified` an earlier edit added (longer: one space).
        let text = """
            @article{a,
              author   = {A. Author},
              title    = {A Title},
              keywords = {x, y},
              date-modified = {2024-03-01 10:22:33 +0100},
            }

            """
        let fixture = try EditingFixture(text: text)
        let result = try fixture.edit("a", .setField("note", to: "Hello"), .setField("rating", to: "4"))
        let written = String(decoding: result.bytes, as: UTF8.self)
        #expect(written.contains("\n  note     = {Hello},\n"), "\(written)")
        #expect(written.contains("\n  rating   = {4},\n"), "\(written)")
    }

    @Test func theLastFieldKeepsTheEntrysClosingBrace() throws {
        let fixture = try EditingFixture(Self.sample)
        // lamport1994latex ends `\tYear = {1994}}`: a field sorting after Year goes after it.
        let added = try fixture.edit("lamport1994latex", .setField("Zzz-Note", to: "last"))
        #expect(fixture.diff(added).added.suffix(2) == ["\tYear = {1994},", "\tZzz-Note = {last}}"])
        // Removing the last field moves the brace back onto the field before it.
        let removed = try fixture.edit("lamport1994latex", .removeField("Year"))
        #expect(fixture.diff(removed).added.last == "\tTitle = {{\\LaTeX}: A Document Preparation System}}")
    }

    @Test func ratingSetsRatingAndZeroRemovesIt() throws {
        let fixture = try EditingFixture(Self.sample)
        let three = try fixture.edit("lamport1994latex", .rate(3))
        #expect(fixture.diff(three).added.contains("\tRating = {3},"))
        let none = try fixture.edit("lamport1994latex", .rate(0))
        #expect(!fixture.diff(none).added.contains { $0.contains("Rating") })
        #expect(fixture.diff(none).removed.contains("\tRating = {4},"))
        #expect(throws: EditError.self) { try fixture.edit("lamport1994latex", .rate(6)) }
    }

    @Test func keywordsAreAddedWithTheFilesSeparatorAndRemovedWithTheirOwn() throws {
        let fixture = try EditingFixture(Self.sample)
        let added = try fixture.edit("lamport1994latex", .addKeywords(["fonts", "LaTeX"]))
        #expect(fixture.diff(added).added.contains("\tKeywords = {typesetting, LaTeX, fonts},"))
        let removed = try fixture.edit("lamport1994latex", .removeKeywords(["typesetting"]))
        #expect(fixture.diff(removed).added.contains("\tKeywords = {LaTeX},"))
        let all = try fixture.edit("lamport1994latex", .removeKeywords(["typesetting", "latex"]))
        #expect(!String(decoding: all.bytes, as: UTF8.self).contains("Keywords = {typesetting, LaTeX}"))
        #expect(fixture.diff(all).removed.contains("\tKeywords = {typesetting, LaTeX},"))
    }

    @Test func staticGroupMembersChangeInThePlistOnly() throws {
        let fixture = try EditingFixture(Self.sample)
        let added = try fixture.edit("lamport1994latex", .addToGroup("To read"))
        let diff = fixture.diff(added)
        #expect(diff.added.contains("\t\t<string>turing1936computable,heyl2023understanding,geisberger2008contraction,muller2015fundamentals,lamport1994latex</string>"))
        #expect(added.changedGroupComment == "To read")
        let removed = try fixture.edit("turing1936computable", .removeFromGroup("To read"))
        #expect(fixture.diff(removed).added.contains("\t\t<string>heyl2023understanding,geisberger2008contraction,muller2015fundamentals</string>"))
        let unknown = #expect(throws: EditError.self) { try fixture.edit("turing1936computable", .addToGroup("Nope")) }
        #expect(unknown?.reason == .unknownGroup)
        #expect(unknown?.message.contains("\"To read\", \"Typesetting course\"") == true)
    }

    @Test func aValueWithUnbalancedBracesIsRefused() throws {
        let fixture = try EditingFixture(Self.sample)
        let open = #expect(throws: EditError.self) { try fixture.edit("lamport1994latex", .setField("Note", to: "a {b")) }
        #expect(open?.reason == .invalidValue)
        #expect(open?.message == "the value of 'Note' leaves 1 '{' unclosed; braces in a BibTeX value must balance")
        let close = #expect(throws: EditError.self) { try fixture.edit("lamport1994latex", .setField("Note", to: "a} {b")) }
        #expect(close?.reason == .invalidValue)
        let entry = #expect(throws: EditError.self) { try fixture.edit("lamport1994latex", .setField("Note", to: "x\n@article{y,")) }
        #expect(entry?.reason == .invalidValue)
    }

    @Test func aMacroValueIsReplacedWithBraces() throws {
        let fixture = try EditingFixture(Self.sample)
        let result = try fixture.edit("lamport1994latex", .setField("Publisher", to: "Addison-Wesley"))
        #expect(fixture.diff(result).added.contains("\tPublisher = {Addison-Wesley},"))
    }

    @Test func unknownEntriesAndZeroEditsAreHandled() throws {
        let fixture = try EditingFixture(Self.sample)
        let missing = #expect(throws: EditError.self) { try fixture.edit("nobody2000", .markRead(true)) }
        #expect(missing?.reason == .unknownEntry)
        let nothing = try fixture.edit("lamport1994latex")
        #expect(nothing.bytes == fixture.bytes)
    }

    @Test func staleBytesAreRefused() throws {
        let fixture = try EditingFixture(Self.sample)
        var changed = fixture.bytes
        changed.append(0x0A)
        let stale = #expect(throws: EditError.self) { try LibraryEditor(library: fixture.library, path: fixture.path, fileBytes: changed) }
        #expect(stale?.reason == .staleFile)
    }
}
