import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// The editing commands on a copy of the sample library (BibDesk's conventions), through the
/// real binary: what they print, what they write (only the edited entry's lines), exit codes.
@Suite("editing commands")
struct EditCommandTests {
    final class Setup: IsolatedHome {
        let library: URL
        let original: String

        init() throws {
            library = try Fixtures.temporaryDirectory().appendingPathComponent("library.bib")
            original = try String(contentsOf: Fixtures.samples.appendingPathComponent("library.bib"), encoding: .utf8)
            try original.write(to: library, atomically: true, encoding: .utf8)
            try super.init()
        }

        deinit { try? FileManager.default.removeItem(at: library.deletingLastPathComponent()) }

        var text: String { (try? String(contentsOf: library, encoding: .utf8)) ?? "" }

        /// The lines of the file now that are not in the original, and the original's that are gone.
        var changedLines: (added: [Substring], removed: [Substring]) {
            let before = original.split(separator: "\n"), after = text.split(separator: "\n")
            return (after.filter { !before.contains($0) }, before.filter { !after.contains($0) })
        }
    }

    @Test func markRateTagAndSetChangeOnlyTheirFieldsAndSaySo() throws {
        let setup = try Setup()
        let mark = try setup.bibread(["mark", setup.library.path, "knuth1984texbook", "unread"])
        #expect(mark.status == 0, "\(mark.standardError)")
        #expect(mark.standardOutput.hasPrefix("library.bib: knuth1984texbook: Read: 1 → 0\n"), "\(mark.standardOutput)")
        let again = try setup.bibread(["mark", setup.library.path, "knuth1984texbook", "unread"])
        #expect(again.standardOutput == "library.bib: knuth1984texbook: already so; nothing to change\n")
        let rate = try setup.bibread(["rate", setup.library.path, "knuth1984texbook", "2"])
        #expect(rate.standardOutput.contains("knuth1984texbook: Rating: 4 → 2"), "\(rate.standardOutput)")
        let tag = try setup.bibread(["tag", setup.library.path, "knuth1984texbook", "+macros", "-TeX"])
        #expect(tag.status == 0, "\(tag.standardError)")
        #expect(tag.standardOutput.contains("Keywords: typesetting, TeX → typesetting, macros"), "\(tag.standardOutput)")
        let set = try setup.bibread(["set", setup.library.path, "knuth1984texbook", "Note=Volume A of {Computers \\& Typesetting}"])
        #expect(set.status == 0, "\(set.standardError)")

        let (added, removed) = setup.changedLines
        #expect(added.contains("\tRead = {0},"), "\(added)")
        #expect(added.contains("\tRating = {2},"), "\(added)")
        #expect(added.contains("\tKeywords = {typesetting, macros},"), "\(added)")
        #expect(added.contains("\tNote = {Volume A of {Computers \\& Typesetting}},"), "\(added)")
        #expect(removed.contains("\tKeywords = {typesetting, TeX},"))
        // Every byte outside the entry is the original's.
        let (before, after) = (setup.original, setup.text)
        let start = try #require(before.range(of: "@book{knuth1984texbook,"))
        #expect(after.hasPrefix(before[..<start.lowerBound]))
        let end = try #require(before[start.upperBound...].range(of: "\n}\n"))
        #expect(after.hasSuffix(before[end.upperBound...]))
        let entry = after.dropFirst(before.distance(from: before.startIndex, to: start.lowerBound))
            .dropLast(before.distance(from: end.upperBound, to: before.endIndex))
        #expect(entry.split(separator: "\n").count == before[start.lowerBound..<end.upperBound].split(separator: "\n").count + 1,
                "one line more: the Note")
        #expect(try setup.bibread(["check", setup.library.path]).status == 0)
    }

    @Test func dryRunShowsTheLinesAndWritesNothing() throws {
        let setup = try Setup()
        let result = try setup.bibread(["rate", setup.library.path, "knuth1984texbook", "3", "--dry-run"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("+\tRating = {3},"), "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("--- \(setup.library.path)\n+++ \(setup.library.path) (edited)\n@@ "))
        #expect(setup.text == setup.original)
    }

    @Test func unknownKeysAndGroupsAreRefusedAndNothingIsWritten() throws {
        let setup = try Setup()
        let key = try setup.bibread(["mark", setup.library.path, "knuth1984texbook", "knuth1984texbok", "read"])
        #expect(key.status == 1)
        #expect(key.standardError.hasPrefix("bibread: no reference with key 'knuth1984texbok' in \(setup.library.path); did you mean"),
                "\(key.standardError)")
        let group = try setup.bibread(["group", "add", setup.library.path, "No such group", "knuth1984texbook"])
        #expect(group.status == 1)
        #expect(group.standardError.contains("no BibDesk static group named \"No such group\""), "\(group.standardError)")
        let usage = try setup.bibread(["rate", setup.library.path, "knuth1984texbook", "9"])
        #expect(usage.status == 64)
        #expect(setup.text == setup.original)
    }

    @Test func aStaticGroupGainsAndLosesAMemberAndUndoGoesBack() throws {
        let setup = try Setup()
        let add = try setup.bibread(["group", "add", setup.library.path, "To read", "shannon1948mathematical"])
        #expect(add.status == 0, "\(add.standardError)")
        #expect(add.standardOutput.contains("static group \"To read\": members changed"), "\(add.standardOutput)")
        let library = LibraryLoader.load(paths: [setup.library.path]).library
        let group = try #require(Group.find("To read", in: GroupCatalog.groups(of: library, synced: false)))
        #expect(group.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk()))
            .map { library.entries[$0].key }.contains("shannon1948mathematical"))
        let undo = try setup.bibread(["undo", setup.library.path])
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(setup.text == setup.original)
    }

    @Test func anEditOfASyncedLibraryIsJournaledForTheNextSync() throws {
        let setup = try Setup()
        let locations = RemoteLocations(name: "lab", environment: setup.environment)
        try FileManager.default.createDirectory(at: locations.library, withIntermediateDirectories: true)
        let synced = locations.library.appendingPathComponent("library.bib")
        try setup.original.write(to: synced, atomically: true, encoding: .utf8)
        let result = try setup.bibread(["mark", "lab", "turing1936computable", "read"])
        #expect(result.status == 0, "\(result.standardError)")
        let pending = try EditJournal(url: locations.journal).pending()
        #expect(pending.map(\.file) == ["library.bib", "library.bib"])
        #expect(pending.map(\.address) == ["turing1936computable", "turing1936computable"])
        #expect(pending.map(\.change.field).sorted() == ["date-modified", "read"])
    }
}
