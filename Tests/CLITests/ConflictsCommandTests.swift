import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// `bibread conflicts`: what a merge left for the user, read from each remote's journal.
@Suite("bibread conflicts")
struct ConflictsCommandTests {
    @Test func listsEveryOpenConflictOfEveryRemoteAsTextAndJSON() throws {
        let home = try IsolatedHome()
        let empty = try home.bibread(["conflicts"])
        #expect(empty.status == 0)
        #expect(empty.standardOutput == "No conflicts: every change made here is in its library.\n")

        let locations = RemoteLocations(name: "lab", environment: home.environment)
        let journal = try EditJournal(url: locations.journal)
        try journal.finishPush(of: [], conflicts: [
            MergeConflict(kind: .field, address: "turing1936", field: "keywords", base: "logic", mine: "logic, machines",
                          theirs: "logic, computability"),
            MergeConflict(kind: .deletedAndEdited, address: "gone#2", field: nil, base: nil, mine: nil, theirs: nil),
        ], file: "library.bib", at: 1_790_000_000)
        let resolved = try #require(try journal.openConflicts().last?.id)
        try journal.finishPush(of: [], conflicts: [
            MergeConflict(kind: .field, address: "x", field: "rating", base: nil, mine: "5", theirs: "4"),
        ], file: "library.bib", at: 1_790_000_001)
        try journal.resolve(conflict: resolved + 1, at: 1_790_000_002)

        let text = try home.bibread(["conflicts"])
        #expect(text.status == 0)
        #expect(text.standardOutput == """
        lab: library.bib: turing1936 keywords: yours 'logic, machines' · in the library 'logic, computability'
        lab: library.bib: gone#2 was deleted on one machine and changed on the other; it was kept

        """)
        let json = try home.bibread(["conflicts", "lab", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(report.count == 2)
        #expect(report.first?["field"] as? String == "keywords")
        #expect(report.first?["mine"] as? String == "logic, machines")
        #expect(report.last?["kind"] as? String == "deleted-and-edited")

        let unknown = try home.bibread(["conflicts", "nowhere"])
        #expect(unknown.status == 64)
    }
}
