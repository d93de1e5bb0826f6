import BibModel
import Testing

/// The three-way merge of two versions of a library at the level of references and fields.
@Suite("three-way merge")
struct ThreeWayMergeTests {
    private static func library(_ text: String) -> Library {
        Library.parse([(path: "/tmp/merge.bib", bytes: Array(text.utf8))])
    }

    private static let base = library("""
    @article{x, title = {X}, year = 2001}
    @article{y, title = {Y}, keywords = {logic}}
    @article{z, title = {Z}}
    """)

    @Test func changesToDifferentReferencesAndFieldsAreAllKept() {
        // This machine marks x read; the other tagged y and rated z, and changed x's year.
        let mine = Self.library("""
        @article{x, title = {X}, year = 2001, read = {1}}
        @article{y, title = {Y}, keywords = {logic}}
        @article{z, title = {Z}}
        """)
        let theirs = Self.library("""
        @article{x, title = {X}, year = 2002}
        @article{y, title = {Y}, keywords = {logic, sets}}
        @article{z, title = {Z}, rating = {4}}
        """)
        let plan = ThreeWayMerge.plan(base: Self.base, mine: mine, theirs: theirs)
        #expect(plan.conflicts.isEmpty)
        #expect(plan.changes.count == 1)
        guard case .changed(let entry, let fields)? = plan.changes.first else {
            Issue.record("expected a change of x: \(plan.changes)")
            return
        }
        #expect(entry.address == "x")
        #expect(fields == [FieldDifference(field: "read", before: nil, after: "1")])
    }

    @Test func theSameFieldChangedDifferentlyIsAConflictThatKeepsBothValues() {
        let mine = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic, mine}}
        @article{z, title = {Z}}
        """)
        let theirs = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic, theirs}}
        @article{z, title = {Z}}
        """)
        let plan = ThreeWayMerge.plan(base: Self.base, mine: mine, theirs: theirs)
        #expect(plan.changes.isEmpty)
        #expect(plan.conflicts == [MergeConflict(kind: .field, address: "y", field: "keywords", base: "logic",
                                                 mine: "logic, mine", theirs: "logic, theirs")])
    }

    /// Both machines' edits set the modification date, a second apart or more: that is no
    /// conflict (a two-machine test saw one whenever the two edits fell in different seconds).
    @Test func modificationDatesChangedOnBothSidesAreNoConflict() {
        let base = Self.library("@book{k, title = {K}, rating = {4}, date-modified = {2024-01-01 10:00:00 +0000}}")
        let mine = Self.library("@book{k, title = {K}, rating = {5}, date-modified = {2026-11-27 02:19:21 +0000}}")
        let theirs = Self.library("@book{k, title = {K}, rating = {4}, keywords = {x}, date-modified = {2026-11-27 02:19:20 +0000}}")
        let plan = ThreeWayMerge.plan(base: base, mine: mine, theirs: theirs)
        #expect(plan.conflicts.isEmpty, "\(plan.conflicts)")
        guard case .changed(_, let fields)? = plan.changes.first else {
            Issue.record("expected the rating carried over: \(plan.changes)")
            return
        }
        #expect(fields == [FieldDifference(field: "rating", before: "4", after: "5")])
        let jabRef = ThreeWayMerge.plan(base: Self.library("@book{k, modificationdate = {2024-01-01T10:00:00}}"),
                                        mine: Self.library("@book{k, modificationdate = {2026-11-27T02:19:21}}"),
                                        theirs: Self.library("@book{k, modificationdate = {2026-11-27T02:19:20}}"))
        #expect(jabRef.isEmpty)
    }

    @Test func theSameChangeOnBothSidesNeedsNothing() {
        let both = Self.library("""
        @article{x, title = {X}, year = 2001, read = {1}}
        @article{y, title = {Y}, keywords = {logic}}
        @article{z, title = {Z}}
        """)
        #expect(ThreeWayMerge.plan(base: Self.base, mine: both, theirs: both).isEmpty)
    }

    @Test func referencesAddedOrRemovedOnOneSideAreKeptSo() {
        let mine = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic}}
        @article{new, title = {New here}}
        """)
        let plan = ThreeWayMerge.plan(base: Self.base, mine: mine, theirs: Self.base)
        #expect(plan.conflicts.isEmpty)
        #expect(plan.changes.map(\.address) == ["new", "z"])
        #expect(plan.changes.contains { if case .removed(let entry) = $0 { entry.address == "z" } else { false } })
    }

    @Test func deletedOnOneSideAndEditedOnTheOtherKeepsTheReference() {
        // They deleted z; this side rated it: z comes back with the rating, and it is reported.
        let mine = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic}}
        @article{z, title = {Z}, rating = {5}}
        """)
        let theirs = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic}}
        """)
        let plan = ThreeWayMerge.plan(base: Self.base, mine: mine, theirs: theirs)
        #expect(plan.changes.map(\.address) == ["z"])
        #expect(plan.conflicts.map(\.kind) == [.deletedAndEdited])
        // This side deleted y; they tagged it: y stays, and it is reported.
        let deleting = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{z, title = {Z}}
        """)
        let tagged = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic, sets}}
        @article{z, title = {Z}}
        """)
        let kept = ThreeWayMerge.plan(base: Self.base, mine: deleting, theirs: tagged)
        #expect(kept.changes.isEmpty)
        #expect(kept.conflicts == [MergeConflict(kind: .deletedAndEdited, address: "y", field: nil, base: nil, mine: nil, theirs: nil)])
    }

    @Test func aReferenceAddedOnBothSidesKeepsWhatAgreesAndReportsWhatDiffers() {
        let mine = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic}}
        @article{z, title = {Z}}
        @book{twin, title = {Twin}, year = 2020, note = {mine only}}
        """)
        let theirs = Self.library("""
        @article{x, title = {X}, year = 2001}
        @article{y, title = {Y}, keywords = {logic}}
        @article{z, title = {Z}}
        @book{twin, title = {Twin (2nd ed.)}, year = 2020, isbn = {theirs only}}
        """)
        let plan = ThreeWayMerge.plan(base: Self.base, mine: mine, theirs: theirs)
        guard case .changed(_, let fields)? = plan.changes.first else {
            Issue.record("expected mine-only fields added: \(plan.changes)")
            return
        }
        #expect(fields == [FieldDifference(field: "note", before: nil, after: "mine only")])
        #expect(plan.conflicts == [MergeConflict(kind: .field, address: "twin", field: "title", base: nil,
                                                 mine: "Twin", theirs: "Twin (2nd ed.)")])
    }

    @Test func duplicateKeysAreMatchedByOccurrenceAndCaseIsIgnored() {
        let base = Self.library("""
        @article{dup, title = {First}}
        @article{dup, title = {Second}}
        """)
        let mine = Self.library("""
        @article{DUP, title = {First}}
        @article{dup, title = {Second}, read = {1}}
        """)
        let plan = ThreeWayMerge.plan(base: base, mine: mine, theirs: base)
        #expect(plan.changes.map(\.address) == ["dup#2"])
    }
}
