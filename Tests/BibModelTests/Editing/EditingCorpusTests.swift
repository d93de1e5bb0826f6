import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// The byte-preservation property over every file of the shared corpora: a random edit of a
/// random entry changes the file only inside that entry (and the static group comment for a
/// group edit), the file reads back as before plus the edit, and an edit that changes nothing
/// gives the file's bytes back.
///
/// Every file is covered (about 570); each gets one seeded random edit (`BIBREAD_TEST_SEED`
/// replays a run). Files over 1 MB get their edit too, but the re-parse of a few MB in a debug
/// build is what takes the time (the whole suite runs in well under a minute on 2 cores).
@Suite("editing: the corpora, byte for byte")
struct EditingCorpusTests {
    @Test func aNoOpEditGivesEveryFileBackByteForByte() throws {
        var files = 0
        for url in Fixtures.corpusBibFiles {
            guard let fixture = try? EditingFixture(url) else { continue }
            files += 1
            guard fixture.editor.conventions.dialect != .zotero, let entry = fixture.library.entries.first(where: { $0.source.path == fixture.path }) else { continue }
            // Edits that find nothing to change: no bytes change, not even a date.
            let conventions = fixture.editor.conventions
            let edits: [EntryEdit] = [.removeField("bibread-no-such-field"), .removeKeywords(["bibread-no-such-keyword"]),
                                      .markRead(conventions.isRead(entry)), .rate(conventions.rating(of: entry))]
            switch fixture.attempt(edits, on: entry.entryAddress) {
            case .success(let result):
                #expect(result.isUnchanged, "\(url.lastPathComponent): \(entry.key) \(result.summary)")
                #expect(result.bytes == fixture.bytes, "\(url.lastPathComponent)")
            case .failure(let error):
                // Refused (an entry that does not read cleanly): no bytes at all.
                #expect(error.reason == .unreadableEntry, "\(url.lastPathComponent): \(error)")
            }
        }
        #expect(files > 500)
    }

    @Test func aRandomEditChangesOnlyItsEntry() throws {
        var (random, seed) = SeededGenerator.forTest("aRandomEditChangesOnlyItsEntry")
        var edited = 0
        var refused: [EditError.Reason: Int] = [:]
        for url in Fixtures.corpusBibFiles {
            guard let fixture = try? EditingFixture(url) else { continue }
            let entries = fixture.library.entries.filter { $0.source.path == fixture.path }
            guard let entry = entries.randomElement(using: &random) else { continue }
            let edits = Self.randomEdits(for: entry, fixture: fixture, using: &random)
            let result: EditResult
            switch fixture.attempt(edits, on: entry.entryAddress) {
            case .success(let edited):
                result = edited
            case .failure(let error):
                refused[error.reason, default: 0] += 1
                let expected: [EditError.Reason] = fixture.editor.conventions.dialect == .zotero ? [.readOnly]
                    : [.unreadableEntry, .unencodable, .unknownGroup, .invalidArgument, .unknownEntry]
                #expect(expected.contains(error.reason), "\(url.lastPathComponent) @\(entry.key) \(edits): \(error) (seed \(seed))")
                continue
            }
            if case .failure(let error) = fixture.check(result) {
                Issue.record("\(url.lastPathComponent) @\(entry.key) \(edits): \(error) (seed \(seed))")
                continue
            }
            try Self.expectOnlyTheEntryChanged(fixture, entry: entry, result: result, seed: seed)
            edited += 1
        }
        print("aRandomEditChangesOnlyItsEntry: \(edited) files edited; refused: \(refused)")
        #expect(edited > 400)
    }

    /// Everything before the entry's `@` and after its end is the old file's, byte for byte
    /// (the group comment aside, for a group edit).
    static func expectOnlyTheEntryChanged(_ fixture: EditingFixture, entry: Entry, result: EditResult, seed: UInt64) throws {
        let old = fixture.bytes
        let new = result.bytes
        guard result.changedGroupComment == nil else { return }
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let changedStart = prefix
        let changedEnd = old.count - suffix
        guard changedStart < changedEnd || old.count != new.count else { return }
        // The entry's span in the old file: from its line to the next entry's line (or the end).
        let entryLine = entry.location.line
        let lines = old.split(separator: 0x0A, omittingEmptySubsequences: false)
        var lineStarts: [Int] = [0]
        for line in lines { lineStarts.append(lineStarts[lineStarts.count - 1] + line.count + 1) }
        let entryStart = lineStarts[entryLine - 1]
        let following = fixture.library.entries.filter { $0.source.path == fixture.path && $0.location.line > entryLine }.map(\.location.line).min()
        let entryEnd = following.map { lineStarts[$0 - 1] } ?? old.count
        #expect(changedStart >= entryStart && changedEnd <= entryEnd,
                "\(URL(fileURLWithPath: fixture.path).lastPathComponent): bytes \(changedStart)..<\(changedEnd) changed, outside @\(entry.key) (\(entryStart)..<\(entryEnd)) (seed \(seed))")
    }

    static func randomEdits(for entry: Entry, fixture: EditingFixture, using random: inout SeededGenerator) -> [EntryEdit] {
        let own = entry.fields.filter { !$0.isInherited }
        let values = ["Gödel", "new value", "{Braced} text", "李", "multi\nline", "2024", "with \"quotes\""]
        var choices: [EntryEdit] = [
            .markRead(Bool.random(using: &random)), .rate(Int.random(in: 0...5, using: &random)),
            .addKeywords(["bibread-test"]), .removeKeywords(["bibread-test"]),
            .setField("note", to: values.randomElement(using: &random) ?? ""),
            .setField("zz-extra", to: values.randomElement(using: &random) ?? ""),
        ]
        if let field = own.randomElement(using: &random) {
            let name = entry.spelledName(of: field)
            choices += [.removeField(name), .setField(name, to: values.randomElement(using: &random) ?? "")]
        }
        if let group = fixture.library.files.first?.comments.contains(where: { $0.text.hasPrefix("BibDesk Static") }) == true ? "To read" : nil {
            choices.append(.addToGroup(group))
        }
        var edits: [EntryEdit] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            if let edit = choices.randomElement(using: &random) { edits.append(edit) }
        }
        return edits
    }
}
