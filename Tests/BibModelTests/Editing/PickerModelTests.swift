import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// What the reader's keywords prompt and static groups checklist read from a library: its
/// keyword vocabulary (completion, most used first), a reference's own keywords, and the static
/// groups of its file with its membership, on the sample (BibDesk) and real JabRef files.
@Suite("editing: keywords and static groups to pick from")
struct PickerModelTests {
    static var sample: URL { Fixtures.samples.appendingPathComponent("library.bib") }
    static var jabRef: URL { Fixtures.corpus("bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib") }
    static var jabRef3: URL { Fixtures.corpus("bib/zotero-bbt/import_Jabref_groups_import_does_not_work__717.2.10.bib") }
    static var betterBibTeX: URL { Fixtures.corpus("bib/zotero-bbt/export_Better_BibTeX_does_not_export_collections__901.bibtex") }

    // MARK: - Keywords

    @Test func theVocabularyIsMostUsedFirstCountedWithoutCase() {
        let library = Fixtures.library("""
        @misc{a, keywords = {Graphs; trees}}
        @misc{b, keywords = {graphs, Trees, logic}}
        @misc{c, keywords = {graphs,logic, trees}}
        @misc{d, keywords = {zeta, alpha}}
        @misc{e, title = {no keywords}, keywords = {graphs, graphs}}
        """)
        let vocabulary = KeywordVocabulary(library: library)
        // graphs: 4 references (one has it twice), trees 3 (spelled as most write it), logic 2,
        // then 1 each in natural order.
        #expect(vocabulary.words == ["graphs", "trees", "logic", "alpha", "zeta"])
        #expect(vocabulary.count(of: "GRAPHS") == 4)
        #expect(vocabulary.count(of: "Trees") == 3)
        #expect(vocabulary.count(of: "absent") == 0)
    }

    @Test func completionsMatchThePrefixWithoutCaseLeavingOutWhatIsExcluded() {
        let library = Fixtures.library(at: Self.sample)
        let vocabulary = KeywordVocabulary(library: library)
        #expect(vocabulary.words.first == "typesetting", "the sample's most used keyword")
        #expect(vocabulary.completions(of: "GR") == ["graphs"])
        #expect(vocabulary.completions(of: "l").starts(with: ["line breaking", "logic"]))
        #expect(vocabulary.completions(of: "l", excluding: ["line breaking"]).first == "logic")
        #expect(vocabulary.completions(of: "nothing starts so").isEmpty)
        #expect(vocabulary.completions(of: "").count == vocabulary.words.count)
    }

    @Test func anEditMadeInTheReaderUpdatesTheCounts() {
        let vocabulary = KeywordVocabulary(library: Fixtures.library("@misc{a, keywords = {old, shared}}\n@misc{b, keywords = {shared}}"))
        let updated = vocabulary.updated(adding: ["New"], removing: ["old", "shared"])
        #expect(updated.words == ["New", "shared"])
        #expect(updated.count(of: "shared") == 1)
        #expect(updated.count(of: "old") == 0)
    }

    @Test func aReferencesOwnKeywordsAreItsFieldsItemsNotItsParents() {
        let library = Fixtures.library("""
        @book{parent, keywords = {inherited}}
        @incollection{child, crossref = {parent}, Keywords = {first; second , third}}
        @incollection{orphan, crossref = {parent}}
        """)
        #expect(library.entry(addressedBy: "child")?.ownKeywords == ["first", "second", "third"])
        #expect(library.entry(addressedBy: "orphan")?.ownKeywords == [])
    }

    // MARK: - Static groups

    @Test func bibDeskStaticGroupsAreTickedWhereTheReferenceIsAMember() throws {
        let library = Fixtures.library(at: Self.sample)
        let entry = try #require(library.entry(addressedBy: "knuth1984texbook"))
        let membership = try StaticGroupMembership.of(entry, in: library).get()
        #expect(membership.dialect == .bibDesk)
        #expect(membership.choices == [.init(name: "To read", depth: 0, isMember: false),
                                       .init(name: "Typesetting course", depth: 0, isMember: true)])
    }

    @Test func jabRefExplicitGroupsComeWithTheirDepthAndTheGroupsField() throws {
        let library = Fixtures.library(at: Self.jabRef)
        let member = try #require(library.entries.first { $0.raw("groups")?.contains("jfd1:1") == true })
        let membership = try StaticGroupMembership.of(member, in: library).get()
        #expect(membership.dialect == .jabRef)
        #expect(membership.choices.map(\.name) == ["Markings", "jfd1:1", "Group1", "Group1a", "Group1b", "Group2"])
        #expect(membership.choices.map(\.depth) == [0, 1, 0, 1, 1, 0])
        #expect(membership.choices.filter(\.isMember).map(\.name) == ["jfd1:1", "Group1a", "Group2"])
    }

    /// Every group offered is one the edit engine (and so `bibread group add`) accepts, and a
    /// ticked one is one the reference is in (adding it changes nothing).
    @Test func everyGroupOfferedIsOneAnEditAccepts() throws {
        for url in [Self.sample, Self.jabRef] {
            let fixture = try EditingFixture(url)
            for entry in fixture.library.entries.prefix(6) {
                let membership = try StaticGroupMembership.of(entry, in: fixture.library).get()
                #expect(!membership.choices.isEmpty)
                for choice in membership.choices {
                    let adding = try fixture.editor.apply([.addToGroup(choice.name)], to: entry.entryAddress, at: EditingFixture.clock)
                    let removing = try fixture.editor.apply([.removeFromGroup(choice.name)], to: entry.entryAddress, at: EditingFixture.clock)
                    #expect(adding.isUnchanged == choice.isMember, "\(url.lastPathComponent): \(entry.key) in \(choice.name)")
                    #expect(removing.isUnchanged == !choice.isMember, "\(url.lastPathComponent): \(entry.key) out of \(choice.name)")
                }
            }
        }
    }

    @Test func aFileWithoutStaticGroupsHasNone() throws {
        let library = Fixtures.library("@misc{a, title = {A}}")
        let entry = try #require(library.entries.first)
        let membership = try StaticGroupMembership.of(entry, in: library).get()
        #expect(membership.choices.isEmpty)
        #expect(membership.dialect == .bibDesk)
    }

    @Test func aZoteroExportAndJabRef3GroupsAreRefusedSayingWhy() throws {
        let zotero = Fixtures.library(at: Self.betterBibTeX)
        let exported = try #require(zotero.entries.first)
        let refused = try #require(StaticGroupMembership.of(exported, in: zotero).failure)
        #expect(refused.reason == .readOnly)
        #expect(refused.message.contains("Zotero writes it again on every export"))
        let old = Fixtures.library(at: Self.jabRef3)
        let first = try #require(old.entries.first)
        let legacy = try #require(StaticGroupMembership.of(first, in: old).failure)
        #expect(legacy.message.contains("JabRef 4 or later"))
    }
}

extension Result {
    /// The error, when it failed.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
