import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// The journal of edits a synced library's remote does not have yet, and of merge conflicts.
@Suite("edit journal")
struct EditJournalTests {
    /// Two processes starting at once (a sync and an edit, the first time a library is synced)
    /// both create the journal: each must get it, not "table edit already exists" (CI saw
    /// that in SyncWhileEditingTests). The same for the cache manifest beside it.
    @Test func storesOpenedAtOnceForTheFirstTimeAllOpen() throws {
        let journal = try ConcurrentOpening.failures { folder in
            _ = try EditJournal(url: folder.appendingPathComponent("journal.sqlite"))
        }
        #expect(journal.isEmpty, "\(journal.count) openings failed: \(Set(journal))")
        let manifest = try ConcurrentOpening.failures { folder in
            _ = try CacheManifest(url: folder.appendingPathComponent("manifest.sqlite"))
        }
        #expect(manifest.isEmpty, "\(manifest.count) openings failed: \(Set(manifest))")
    }

    @Test func editsStayPendingUntilAPushPutsThemOnTheRemoteAcrossReopening() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("journal.sqlite")
        var journal = try EditJournal(url: url)
        let read = try journal.record(file: "library.bib", address: "knuth1984", changes: [FieldDifference(field: "read", before: nil, after: "1")],
                                      at: 100)
        let tagged = try journal.record(file: "library.bib", address: "turing1936", changes: [
            FieldDifference(field: "keywords", before: "logic", after: "logic, machines"),
            FieldDifference(field: "rating", before: nil, after: "4"),
        ], at: 101)
        try journal.record(file: "other.bib", address: "x", changes: [FieldDifference(field: "note", before: "a", after: nil)], at: 102)
        #expect(read.count == 1 && tagged.count == 2)

        journal = try EditJournal(url: url)
        #expect(try journal.pending().map(\.change.field) == ["read", "keywords", "rating", "note"])
        #expect(try journal.pending(file: "library.bib").map(\.address) == ["knuth1984", "turing1936", "turing1936"])
        #expect(try journal.pending(file: "other.bib").first?.change == FieldDifference(field: "note", before: "a", after: nil))

        let conflict = MergeConflict(kind: .field, address: "turing1936", field: "keywords", base: "logic",
                                     mine: "logic, machines", theirs: "logic, computability")
        try journal.finishPush(of: read + tagged, conflicts: [conflict], file: "library.bib", at: 200)
        journal = try EditJournal(url: url)
        #expect(try journal.pending().map(\.file) == ["other.bib"])
        let open = try journal.openConflicts()
        #expect(open.map(\.conflict) == [conflict])
        #expect(open.first?.file == "library.bib")

        try journal.resolve(conflict: try #require(open.first?.id), at: 300)
        #expect(try journal.openConflicts().isEmpty)
    }

    @Test func aReferenceDeletedAndEditedIsKeptAsSuch() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let journal = try EditJournal(url: folder.appendingPathComponent("journal.sqlite"))
        let kept = MergeConflict(kind: .deletedAndEdited, address: "gone#2", field: nil, base: nil, mine: nil, theirs: nil)
        try journal.finishPush(of: [], conflicts: [kept], file: "library.bib", at: 1)
        #expect(try journal.openConflicts().map(\.conflict) == [kept])
    }
}
