import BibModel
import BibreadTestSupport
import Testing

/// Groups, references and cite keys have types of their own, with one way to read and write each.
@Suite("identities")
struct IdentityTests {
    @Test func aBuiltInGroupIsKnownByItsNameInAnyCase() {
        #expect(GroupID(path: "All") == .all)
        #expect(GroupID(path: "all") == .all)
        #expect(GroupID(path: "recently READ") == .builtIn(.recentlyRead))
        #expect(GroupID(path: "All").path == "All")
        #expect(GroupID(path: "Keywords/logic") == .path(["Keywords", "logic"]))
        #expect(GroupID(path: "Keywords/logic").path == "Keywords/logic")
        // Only a top-level name is a built-in group's.
        #expect(GroupID(path: "Keywords/All") == .path(["Keywords", "All"]))
        #expect(GroupID(path: "Keywords").child(named: "logic") == GroupID(path: "Keywords/logic"))
        #expect(GroupID(path: "Keywords/logic").isInside(GroupID(path: "Keywords")))
        #expect(!GroupID(path: "Keywords").isInside(GroupID(path: "Keywords")))
        #expect(!GroupID(path: "Keywordsx/a").isInside(GroupID(path: "Keywords")))
    }

    @Test func theModelsBuiltInGroupsComeFromTheOneDefinition() {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        let builtIns = GroupCatalog.savedGroups(of: library, synced: true).filter { $0.kind == .builtin }.map(\.name)
        #expect(builtIns == BuiltInGroup.allCases.filter { !$0.isTheReaders }.map(\.name))
        let unsynced = GroupCatalog.savedGroups(of: library, synced: false).filter { $0.kind == .builtin }.map(\.name)
        #expect(unsynced == BuiltInGroup.allCases.filter { !$0.isTheReaders && $0 != .remoteOnly }.map(\.name))
        for group in BuiltInGroup.allCases where !group.isTheReaders && group != .remoteOnly {
            #expect(Group.find(.builtIn(group), in: GroupCatalog.savedGroups(of: library, synced: false))?.name == group.name)
        }
    }

    @Test func citeKeysMatchInAnyCaseAddressesDoNot() throws {
        #expect(CiteKey("Knuth1984") == CiteKey("knuth1984"))
        #expect(Set([CiteKey("Knuth1984"), CiteKey("KNUTH1984")]).count == 1)
        #expect(CiteKey("Knuth1984") != CiteKey("Knuth1985"))
        let library = Library.parse([(path: "/tmp/a.bib", bytes: Array("""
        @article{Twice, title = {First}}
        @article{twice, title = {Second}}
        """.utf8))])
        #expect(library.entries(withKey: CiteKey("TWICE")).count == 2)
        #expect(library.entries.map(\.entryAddress) == ["Twice", "twice#2"])
        #expect(try #require(library.entry(at: "twice#2")).title == "Second")
        #expect(library.entries[1].citeKey == "Twice")
    }
}
