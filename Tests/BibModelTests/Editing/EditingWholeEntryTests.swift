import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// Whole references put into a file and taken out of it (what a push does with a reference
/// added or deleted on one machine): the entry's text byte for byte in the file's encoding and
/// line endings, the file's blank-line separation, and every other byte the old file's.
@Suite("editing: whole entries added and removed")
struct EditingWholeEntryTests {
    private static let file = """
    % header

    @article{a,
      title = {A},
    }

    @book{b,
      title = {B},
    }

    @misc{c, title = {C}}

    @comment{BibDesk Static Groups{
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><array><dict><key>group name</key><string>G</string><key>keys</key><string>b</string></dict></array></plist>
    }}

    """

    @Test func anAddedEntryGoesAfterTheLastEntryWithTheFilesSeparation() throws {
        let fixture = try EditingFixture(text: Self.file)
        let result = try fixture.editor.insertEntry("@article{new,\r\n  title = {New},\r\n}")
        try EditCheck.verify(original: fixture.bytes, result: result, path: fixture.path)
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.contains("@misc{c, title = {C}}\n\n@article{new,\n  title = {New},\n}\n\n@comment{BibDesk"))
        #expect(fixture.diff(result).removed.isEmpty)
        #expect(fixture.diff(result).added.sorted() == ["", "  title = {New},", "@article{new,", "}"])
        #expect(result.address == "new")
        #expect(result.wholeEntry == .inserted(text: "@article{new,\n  title = {New},\n}"))
        #expect(result.summary == ["new: added"])
    }

    @Test func anAddedEntryCanFollowItsNeighbour() throws {
        let fixture = try EditingFixture(text: Self.file)
        let result = try fixture.editor.insertEntry("@misc{after-a, title = {After A}}", after: "a")
        try EditCheck.verify(original: fixture.bytes, result: result, path: fixture.path)
        let keys = Library.parse([(path: "x.bib", bytes: result.bytes)]).entries.map(\.key)
        #expect(keys == ["a", "after-a", "b", "c"])
        #expect(String(decoding: result.bytes, as: UTF8.self).contains("  title = {A},\n}\n\n@misc{after-a, title = {After A}}\n\n@book{b,"))
    }

    /// An entry is never put before an `@string` it may use (the corpus test found one: biber's
    /// t_tdata_tool.bib defines `P` just before the entry that uses it).
    @Test func anAddedEntryGoesAfterTheStringsItMayUse() throws {
        let fixture = try EditingFixture(text: "@misc{a, title = {A}}\n\n@string{p = {Pub}}\n\n@misc{b, publisher = p}\n")
        let result = try fixture.editor.insertEntry("@misc{c, publisher = p}", after: "a")
        try EditCheck.verify(original: fixture.bytes, result: result, path: fixture.path)
        #expect(result.bytes == Array("@misc{a, title = {A}}\n\n@string{p = {Pub}}\n\n@misc{b, publisher = p}\n\n@misc{c, publisher = p}\n".utf8))
        let added = Library.parse([(path: "x.bib", bytes: result.bytes)]).entry(at: "c")
        #expect(added.map { $0.decodedText(of: $0.fields[0]) } == "Pub")
    }

    @Test func aCRLFLatin1FileGetsTheEntryInItsLineEndingsAndEncoding() throws {
        let text = "@article{a,\r\n  title = {A},\r\n}\r\n\r\n@article{b,\r\n  title = {Caf\u{E9}},\r\n}\r\n"
        let bytes = Array(text.unicodeScalars.map { UInt8($0.value) })
        let fixture = try EditingFixture(bytes: bytes)
        let result = try fixture.editor.insertEntry("@article{c,\n  title = {Na\u{EF}ve},\n}")
        try EditCheck.verify(original: fixture.bytes, result: result, path: fixture.path)
        let expected = bytes + Array("\r\n\r\n@article{c,\r\n  title = {Na".utf8) + [0xEF] + Array("ve},\r\n}".utf8)
        // Inserted after b's `}`, before the file's last line break.
        #expect(result.bytes == Array(bytes.dropLast(2)) + Array(expected.dropFirst(bytes.count)) + [0x0D, 0x0A])
        let refused = #expect(throws: EditError.self) { try fixture.editor.insertEntry("@article{d, title = {\u{674E}}}") }
        #expect(refused?.reason == .unencodable)
    }

    @Test func textThatIsNotOneCleanEntryIsRefused() throws {
        let fixture = try EditingFixture(text: Self.file)
        for text in ["@article{x, title = {X}} @article{y, title = {Y}}", "@article{x, title = {X}", "no entry", "@string{s = {S}}"] {
            let error = #expect(throws: EditError.self) { try fixture.editor.insertEntry(text) }
            #expect(error?.reason == .invalidValue, "\(text)")
        }
    }

    @Test func aRemovedEntryTakesItsBytesAndTheBlankLineBeforeIt() throws {
        let fixture = try EditingFixture(text: Self.file)
        let result = try fixture.editor.removeEntry(at: "b")
        try EditCheck.verify(original: fixture.bytes, result: result, path: fixture.path)
        #expect(String(decoding: result.bytes, as: UTF8.self) == Self.file.replacingOccurrences(of: "\n\n@book{b,\n  title = {B},\n}", with: ""))
        #expect(result.summary == ["b: removed"])
        // The group comment that lists b is left as it is: only entries are merged.
        #expect(String(decoding: result.bytes, as: UTF8.self).contains("<string>b</string>"))
        // The first entry of a file with nothing before it takes the blank line after it.
        let bare = try EditingFixture(text: "@misc{x, title = {X}}\n\n@misc{y, title = {Y}}\n")
        let first = try bare.editor.removeEntry(at: "x")
        try EditCheck.verify(original: bare.bytes, result: first, path: bare.path)
        #expect(first.bytes == Array("@misc{y, title = {Y}}\n".utf8))
        let unknown = #expect(throws: EditError.self) { try bare.editor.removeEntry(at: "nobody") }
        #expect(unknown?.reason == .unknownEntry)
    }

    @Test func aDuplicateKeyIsAddressedByItsOccurrence() throws {
        let fixture = try EditingFixture(text: "@misc{k, title = {One}}\n\n@misc{k, title = {Two}}\n")
        let removed = try fixture.editor.removeEntry(at: "k#2")
        try EditCheck.verify(original: fixture.bytes, result: removed, path: fixture.path)
        #expect(removed.bytes == Array("@misc{k, title = {One}}\n".utf8))
        let added = try fixture.editor.insertEntry("@misc{K, title = {Three}}")
        #expect(added.address == "K#3")
    }

    /// Over every file of the corpora: a random entry taken out and put back after the entry
    /// that preceded it passes the writer's check both ways, and the file reads as before (the
    /// first run found an entry put back before the `@string` it uses).
    @Test func everyCorpusFileTakesAnEntryOutAndBack() throws {
        var (random, seed) = SeededGenerator.forTest("everyCorpusFileTakesAnEntryOutAndBack")
        var done = 0
        var refused: [EditError.Reason: Int] = [:]
        for url in Fixtures.corpusBibFiles {
            guard let fixture = try? EditingFixture(url), fixture.editor.conventions.dialect != .zotero else { continue }
            let entries = fixture.library.entries.filter { $0.source.path == fixture.path }
            guard entries.count >= 2 else { continue }
            let index = Int.random(in: 1..<entries.count, using: &random)
            guard let text = LibraryEditor.text(of: entries[index]) else { continue }
            let entry = entries[index]
            let removed: EditResult
            do {
                removed = try fixture.editor.removeEntry(at: entry.entryAddress)
                try EditCheck.verify(original: fixture.bytes, result: removed, path: fixture.path)
            } catch {
                refused[error.reason, default: 0] += 1
                #expect(error.reason == .unreadableEntry, "\(url.lastPathComponent) \(entry.key): \(error) (seed \(seed))")
                continue
            }
            let without = try EditingFixture(bytes: removed.bytes, path: fixture.path)
            let back = try without.editor.insertEntry(text, after: entries[index - 1].entryAddress)
            try EditCheck.verify(original: without.bytes, result: back, path: fixture.path)
            let before = fixture.library.entries.map(EntrySnapshot.init)
            let after = Library.parse([(path: fixture.path, bytes: back.bytes)]).entries.map(EntrySnapshot.init)
            // The same references with the same values (in the same order but where an `@string`
            // follows the neighbour: then the entry goes after the last one).
            #expect(before.count == after.count && Set(before) == Set(after), "\(url.lastPathComponent) \(entry.key) (seed \(seed))")
            done += 1
        }
        print("everyCorpusFileTakesAnEntryOutAndBack: \(done) files; refused: \(refused)")
        #expect(done > 300)
    }
}
