import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// `bibread merge-conflicted`: a sync client's conflicted copy folded back into its library
/// through the real binary, in a folder like Dropbox's: what only the copy changed is taken,
/// what both changed is a conflict that keeps both values, nothing else of the file changes, the
/// copy is moved out of the folder, and `undo` takes the merge back.
@Suite("bibread merge-conflicted")
struct MergeConflictedCommandTests {
    static let library = """
        %% This BibTeX bibliography file was created using BibDesk.
        %% https://bibdesk.sourceforge.io/

        @article{alpha,
        \tauthor = {Ada Author},
        \ttitle = {Alpha},
        \tyear = {2001}}

        @article{beta,
        \tauthor = {Bo Author},
        \ttitle = {Beta},
        \tyear = {2002}}

        @book{delta,
        \tauthor = {Di Author},
        \ttitle = {Delta},
        \tyear = {2004}}

        """

    /// Bob's version: a note on alpha, another title for beta, a new reference gamma, and no
    /// delta (without a base, a reference missing from the copy is not a deletion).
    static let copy = """
        %% This BibTeX bibliography file was created using BibDesk.
        %% https://bibdesk.sourceforge.io/

        @article{alpha,
        \tauthor = {Ada Author},
        \ttitle = {Alpha},
        \tyear = {2001},
        \tnote = {Read on the train}}

        @article{beta,
        \tauthor = {Bo Author},
        \ttitle = {Beta, Revised},
        \tyear = {2002}}

        @misc{gamma,
        \tauthor = {Gil Author},
        \ttitle = {Gamma},
        \tyear = {2003}}

        """

    final class Setup: IsolatedHome {
        let folder: URL
        let library: URL
        let copy: URL

        init() throws {
            folder = try Fixtures.temporaryDirectory()
            library = folder.appendingPathComponent("library.bib")
            copy = folder.appendingPathComponent("library (Bob's conflicted copy 2026-11-20).bib")
            try MergeConflictedCommandTests.library.write(to: library, atomically: true, encoding: .utf8)
            try MergeConflictedCommandTests.copy.write(to: copy, atomically: true, encoding: .utf8)
            try super.init()
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var text: String { (try? String(contentsOf: library, encoding: .utf8)) ?? "" }
    }

    @Test func aConflictedCopyIsFoldedInKeepingBothValuesOfWhatDiffers() throws {
        let setup = try Setup()
        let check = try setup.bibread(["check", setup.library.path])
        #expect(check.standardOutput.contains("conflicted copy") || check.standardError.contains("conflicted copy"),
                "\(check.standardOutput)\(check.standardError)")

        let dry = try setup.bibread(["merge-conflicted", setup.library.path, "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("would take"), "\(dry.standardOutput)")
        #expect(setup.text == Self.library)
        #expect(FileManager.default.fileExists(atPath: setup.copy.path))

        let merge = try setup.bibread(["merge-conflicted", setup.library.path])
        #expect(merge.status == 0, "\(merge.standardError)")
        #expect(merge.standardOutput.contains("1 reference changed, 1 added, 0 removed"), "\(merge.standardOutput)")
        #expect(merge.standardOutput.contains("beta title: yours 'Beta, Revised' · in the library 'Beta'"), "\(merge.standardOutput)")

        // alpha gains the note in its neighbours' style and order (BibDesk sorts the fields);
        // gamma comes after beta, as in the copy; beta and delta are as they were.
        let merged = setup.text
        #expect(merged == Self.library
            .replacingOccurrences(of: "\tauthor = {Ada Author},\n", with: "\tauthor = {Ada Author},\n\tnote = {Read on the train},\n")
            .replacingOccurrences(of: "\n\n@book{delta", with: "\n\n@misc{gamma,\n\tauthor = {Gil Author},\n\ttitle = {Gamma},\n\tyear = {2003}}\n\n@book{delta"),
            "\(merged)")
        let library = Library.parse([(path: "library.bib", bytes: Array(merged.utf8))])
        #expect(library.entries.map(\.key) == ["alpha", "beta", "gamma", "delta"])
        #expect(library.diagnostics.filter { $0.severity == .error }.isEmpty)

        // The copy is out of the folder, kept under the state folder; the conflict is listed.
        #expect(!FileManager.default.fileExists(atPath: setup.copy.path))
        let state = URL(fileURLWithPath: try #require(setup.environment["XDG_STATE_HOME"])).appendingPathComponent("bibread/merged-copies")
        let kept = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(kept.count == 1 && kept.first?.hasSuffix("library (Bob's conflicted copy 2026-11-20).bib") == true, "\(kept)")
        #expect(try String(contentsOf: state.appendingPathComponent(kept[0]), encoding: .utf8) == Self.copy)
        let conflicts = try setup.bibread(["conflicts"])
        #expect(conflicts.standardOutput == "\(setup.library.path): beta title: yours 'Beta, Revised' · in the library 'Beta'\n",
                "\(conflicts.standardOutput)")

        // Resolving it writes the copy's value; undo takes that back, then the merge.
        let resolve = try setup.bibread(["conflicts", "resolve", "beta", "title", "--mine"])
        #expect(resolve.status == 0, "\(resolve.standardError)")
        #expect(setup.text.contains("\ttitle = {Beta, Revised},"))
        #expect(try setup.bibread(["conflicts"]).standardOutput.hasPrefix("No conflicts"))
        #expect(try setup.bibread(["undo", setup.library.path]).status == 0)
        #expect(try setup.bibread(["undo", setup.library.path]).status == 0)
        #expect(setup.text == Self.library)
    }

    @Test func withoutACopyOrWithSeveralItSaysSoAndChangesNothing() throws {
        let setup = try Setup()
        let second = setup.folder.appendingPathComponent("library.sync-conflict-20261120-101530-ABCDEFG.bib")
        try Self.copy.write(to: second, atomically: true, encoding: .utf8)
        let several = try setup.bibread(["merge-conflicted", setup.library.path])
        #expect(several.status == 1)
        #expect(several.standardError.contains("several conflicted copies"), "\(several.standardError)")
        #expect(several.standardError.contains(second.path))

        let stranger = setup.folder.appendingPathComponent("notes.bib")
        try "@misc{x, title = {X}}\n".write(to: stranger, atomically: true, encoding: .utf8)
        let wrongName = try setup.bibread(["merge-conflicted", setup.library.path, setup.copy.path + ".missing"])
        #expect(wrongName.status == 1)
        #expect(wrongName.standardError.contains("no such file"), "\(wrongName.standardError)")

        let broken = setup.folder.appendingPathComponent("library (conflicted copy 2026-11-21 101530).bib")
        try "@article{alpha,\n\ttitle = {Alpha\n".write(to: broken, atomically: true, encoding: .utf8)
        let refused = try setup.bibread(["merge-conflicted", setup.library.path, broken.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("library (conflicted copy 2026-11-21 101530).bib:"), "\(refused.standardError)")
        #expect(setup.text == Self.library)
        #expect(FileManager.default.fileExists(atPath: broken.path))
    }
}

/// The same for a library bibread syncs: the last synced copy is the base, so a three-way merge
/// takes the copy's change and keeps the one made here, with no conflict, and the next sync
/// pushes the merge to the remote (lighttpd).
@Suite("bibread merge-conflicted on a synced library")
struct MergeConflictedSyncedTests {
    @Test func theLastSyncedCopyIsTheBaseAndTheMergeIsPushed() throws {
        let setup = try TwoMachineSyncTests.Setup()
        #expect(try setup.run(setup.machineA, ["sync", "lab"]).status == 0)
        let locations = RemoteLocations(name: "lab", environment: setup.machineA)
        let local = locations.library.appendingPathComponent("library.bib")
        // The copy: the synced file with another rating for shannon; here: knuth marked unread.
        let base = try String(contentsOf: local, encoding: .utf8)
        let shannon = TwoMachineSyncTests.Setup.entry("shannon1948mathematical", in: base)
        #expect(!shannon.isEmpty)
        let copy = locations.library.appendingPathComponent("library (Bob's conflicted copy 2026-11-20).bib")
        try base.replacingOccurrences(of: shannon, with: shannon.replacingOccurrences(of: "\n}", with: "\n  note     = {from Bob},\n}"))
            .write(to: copy, atomically: true, encoding: .utf8)
        // With the copy beside it, the remote's name still stands for library.bib alone: the
        // copy's references are not loaded twice, and the edit goes to library.bib (it went to
        // the copy, the first .bib by name, before).
        let listed = try setup.run(setup.machineA, ["list", "lab", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.count == Library.parse([(path: "library.bib", bytes: Array(base.utf8))]).entries.count, "\(listed.standardError)")
        #expect(try setup.run(setup.machineA, ["mark", "lab", "knuth1984texbook", "unread"]).status == 0)
        #expect(TwoMachineSyncTests.Setup.entry("knuth1984texbook", in: try String(contentsOf: local, encoding: .utf8))
            != TwoMachineSyncTests.Setup.entry("knuth1984texbook", in: base))

        let merge = try setup.run(setup.machineA, ["merge-conflicted", "lab"])
        #expect(merge.status == 0, "\(merge.standardError)")
        #expect(merge.standardOutput.contains("(against the last synced copy): 1 reference changed, 0 added, 0 removed"), "\(merge.standardOutput)")
        #expect(!merge.standardOutput.contains("conflict:"), "\(merge.standardOutput)")
        let merged = try String(contentsOf: local, encoding: .utf8)
        #expect(merged.contains("note     = {from Bob},"), "\(merged)")
        #expect(TwoMachineSyncTests.Setup.entry("knuth1984texbook", in: merged) != TwoMachineSyncTests.Setup.entry("knuth1984texbook", in: base))

        let push = try setup.run(setup.machineA, ["sync", "lab"])
        #expect(push.status == 0, "\(push.standardError)")
        #expect(setup.remoteText == merged, "\(push.standardError)")
    }
}
