import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// JabRef group comments written to hurt: a tree nested 50,000 levels deep and search groups
/// with 100,000 nested parentheses or 20,000 terms load without exhausting the stack, and say
/// what was changed.
@Suite("JabRef groups: hostile trees and searches")
struct JabRefGroupHostileTests {
    private func library(grouping lines: [String]) -> Library {
        Fixtures.library("""
            @article{knuth84, title = {Literate Programming}, author = {Knuth}, groups = {g1}}
            @comment{jabref-meta: grouping:
            0 AllEntriesGroup:;
            \(lines.joined(separator: "\n"))
            }
            """)
    }

    /// The depth of the deepest group, walking the tree without recursion.
    private func depth(of groups: [Group]) -> Int {
        var deepest = 0
        var stack = groups.map { ($0, 1) }
        while let (group, level) = stack.popLast() {
            deepest = max(deepest, level)
            stack += group.children.map { ($0, level + 1) }
        }
        return deepest
    }

    @Test("A tree 50,000 levels deep is cut at 32 levels, with a warning at the comment")
    func deepTree() throws {
        let lines = (1...50_000).map { "\($0) StaticGroup:g\($0)\\;2\\;1\\;\\;\\;\\;;" }
        let library = library(grouping: lines)
        let jabref = GroupCatalog.groups(of: library, synced: false).filter { $0.kind == .jabref }
        #expect(depth(of: jabref) == 32)
        let first = try #require(Group.find("g1", in: jabref))
        // g1 gathers its subgroups (hierarchy 2): knuth84 is in g1 itself.
        #expect(first.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk())) == [0])
        let warnings = GroupCatalog.diagnostics(of: library).map(\.description)
        #expect(warnings == ["test.bib:2:1: warning: JabRef groups (grouping): groups nest 50000 levels deep; those below level 32 are shown at level 32"])
    }

    @Test("Search groups too deeply nested or too long are unavailable, with the reason", arguments: [
        ("deep", String(repeating: "(", count: 100_000) + "knuth" + String(repeating: ")", count: 100_000)),
        ("nots", String(repeating: "not ", count: 50_000) + "knuth"),
        ("long", (0..<20_000).map { "x\($0)" }.joined(separator: " and ")),
    ])
    func complexSearches(name: String, query: String) throws {
        let library = library(grouping: ["1 SearchGroup:\(name)\\;0\\;\(query)\\;0\\;0\\;;"])
        let group = try #require(GroupCatalog.groups(of: library, synced: false).first { $0.name == name })
        #expect(group.unavailableReason?.contains("is too complex") == true)
        #expect(group.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk())).isEmpty)
        #expect(GroupCatalog.diagnostics(of: library).contains { $0.message.contains("the search group \"\(name)\" is too complex") })
    }

    @Test("Searches within the limits still work: 30 levels of parentheses, 500 terms")
    func searchesWithinLimits() throws {
        let nested = String(repeating: "(", count: 30) + "author=knuth" + String(repeating: ")", count: 30)
        let long = (["author=knuth"] + (0..<249).map { "x\($0)" }).joined(separator: " or ")
        for (name, query) in [("nested", nested), ("long", long)] {
            let library = library(grouping: ["1 SearchGroup:\(name)\\;0\\;\(query)\\;0\\;0\\;;"])
            let group = try #require(GroupCatalog.groups(of: library, synced: false).first { $0.name == name })
            #expect(group.unavailableReason == nil)
            #expect(group.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk())) == [0], "\(name)")
        }
    }
}
