import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// Edits of JabRef libraries in JabRef's fields, in files with CRLF line endings and in Latin-1,
/// and the Zotero exports that are refused.
@Suite("editing: JabRef conventions, CRLF, Latin-1, Zotero")
struct EditingJabRefTests {
    /// JabRef 5, ISO-8859-1, CRLF line endings, `=` signs lined up, a `grouping` with static groups.
    static var jabRefLatin1CRLF: URL { Fixtures.corpus("bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib") }

    @Test func theFileIsJabRefsInLatin1WithCRLF() throws {
        let fixture = try EditingFixture(Self.jabRefLatin1CRLF)
        #expect(fixture.editor.conventions.dialect == .jabRef)
        #expect(fixture.library.files[0].source.encoding == .latin1)
        #expect(fixture.bytes.contains(0x0D))
    }

    @Test func markingReadAddsReadstatusLinedUpWithCRLF() throws {
        let fixture = try EditingFixture(Self.jabRefLatin1CRLF)
        let result = try fixture.edit("Chau2020", .markRead(true), .rate(4))
        let diff = fixture.diff(result)
        #expect(diff.removed.isEmpty)
        #expect(diff.added == ["  readstatus = {read},\r", "  ranking   = {rank4},\r"])
        #expect(String(decoding: result.bytes, as: UTF8.self).contains("163808/},\r\n  readstatus = {read},\r\n  ranking   = {rank4},\r\n}\r\n"))
        // JabRef has no modification date in this file, so none is added.
        #expect(result.changes.map(\.name) == ["readstatus", "ranking"])
        let unread = try fixture.edit("Chau2020", .markRead(false))
        #expect(unread.isUnchanged)
    }

    @Test func aLatin1ValueIsWrittenInLatin1AndACJKOneIsRefused() throws {
        let fixture = try EditingFixture(Self.jabRefLatin1CRLF)
        let result = try fixture.edit("Chau2020", .setField("note", to: "G\u{F6}del"))
        let written = fixture.diff(result).added.joined()
        // ö is one byte, 0xF6, as the rest of the file.
        #expect(result.bytes.contains(0xF6))
        #expect(!result.bytes.contains(0xC3))
        #expect(written.contains("note      = {G"))
        let refused = #expect(throws: EditError.self) { try fixture.edit("Chau2020", .setField("note", to: "\u{674E}")) }
        #expect(refused?.reason == .unencodable)
        #expect(refused?.message.hasPrefix("'\u{674E}' (U+674E) in the value of 'note' cannot be written in ") == true)
        #expect(refused?.message.contains("which is in ISO-8859-1") == true)
    }

    @Test func explicitGroupsGoInTheGroupsField() throws {
        let fixture = try EditingFixture(Self.jabRefLatin1CRLF)
        let added = try fixture.edit("Chau2020", .addToGroup("Group1a"))
        #expect(fixture.diff(added).added == ["  groups    = {Group2, Group1a},\r"])
        #expect(fixture.diff(added).removed == ["  groups    = {Group2},\r"])
        let removed = try fixture.edit("Chau2020", .removeFromGroup("Group2"))
        #expect(fixture.diff(removed).removed == ["  groups    = {Group2},\r"])
        #expect(fixture.diff(removed).added.isEmpty)
        let unknown = #expect(throws: EditError.self) { try fixture.edit("Chau2020", .addToGroup("Nope")) }
        #expect(unknown?.reason == .unknownGroup)
    }

    @Test func aFileWithoutAnyApplicationsMarksGetsBibDesksFields() throws {
        let fixture = try EditingFixture(text: "@article{a,\n  title = \"A\",\n  year = 2001\n}\n")
        #expect(fixture.editor.conventions.dialect == .bibDesk)
        #expect(fixture.editor.conventions.evidence == nil)
        let result = try fixture.edit("a", .markRead(true), .setField("year", to: "2002"), .setField("note", to: "say \"hi\""))
        #expect(String(decoding: result.bytes, as: UTF8.self) == "@article{a,\n  title = \"A\",\n  year = 2002,\n  read = \"1\",\n  note = {say \"hi\"}\n}\n")
    }

    @Test func aDateModifiedIsWrittenInBibDesksFormat() throws {
        let fixture = try EditingFixture(text: "@article{a,\n\tAuthor = {B},\n\tDate-Modified = {2020-01-01 00:00:00 +0000},\n\tTitle = {A}}\n")
        let result = try fixture.edit("a", .rate(2))
        #expect(String(decoding: result.bytes, as: UTF8.self)
            == "@article{a,\n\tAuthor = {B},\n\tDate-Modified = {2024-03-01 10:22:33 +0100},\n\tRating = {2},\n\tTitle = {A}}\n")
    }

    @Test func aJabRefModificationDateIsWrittenInISOForm() throws {
        let text = "@Comment{jabref-meta: databaseType:bibtex;}\n@article{a,\n  modificationdate = {2020-01-01T00:00:00},\n  title = {A},\n}\n"
        let fixture = try EditingFixture(text: text)
        let result = try fixture.edit("a", .markRead(true))
        #expect(fixture.diff(result).added == ["  modificationdate = {2024-03-01T10:22:33},", "  readstatus = {read},"])
    }

    @Test func aUTF8FileWithABOMKeepsIt() throws {
        let fixture = try EditingFixture(bytes: [0xEF, 0xBB, 0xBF] + Array("@misc{a, title = {Ä}}\n".utf8))
        let result = try fixture.edit("a", .setField("title", to: "Ö"))
        #expect(result.bytes == [0xEF, 0xBB, 0xBF] + Array("@misc{a, title = {Ö}}\n".utf8))
    }

    @Test func aFieldThatNamesBetterBibTeXDoesNotMakeAZoteroExport() throws {
        // A real file field (corpora: import_Better_BibTeX.015.bib) holds the words; a library
        // that mentions them in a value is the user's own, and editable.
        let text = "@article{a,\n  title = {On exports},\n  file = {a.pdf:Better BibTeX.015/F64PVIN4/a.pdf:application/pdf},\n}\n"
        let fixture = try EditingFixture(text: text)
        #expect(fixture.editor.conventions.dialect == .bibDesk)
        #expect(try fixture.edit("a", .markRead(true)).changes.map(\.name) == ["Read"])
    }

    @Test func aCommentThatNamesBetterBibTeXMakesAZoteroExport() throws {
        for text in ["% Exported by Better BibTeX for Zotero\n@article{a, title = {T}}\n",
                     "@article{a, title = {T}}\n\n@comment{Better BibTeX: keep this file as it is}\n"] {
            let fixture = try EditingFixture(text: text)
            #expect(fixture.editor.conventions.dialect == .zotero, "\(text)")
        }
    }

    @Test func betterBibTeXExportsAreRefusedSayingWhy() throws {
        let fixture = try EditingFixture(Fixtures.corpus("bib/zotero-bbt/export_Better_BibTeX_does_not_export_collections__901.bibtex"))
        #expect(fixture.editor.conventions.dialect == .zotero)
        let key = try #require(fixture.library.entries.first?.key)
        let refused = #expect(throws: EditError.self) { try fixture.edit(key, .markRead(true)) }
        #expect(refused?.reason == .readOnly)
        #expect(refused?.message.contains("Zotero writes it again on every export") == true)
    }
}
