@testable import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// The fast paths of counting groups (issue 31) give exactly what the straightforward loops
/// give: columns and value indexes read on every core (`EntryScan`), JabRef static groups through
/// the index of `groups` fields, the field groups' parents through their value index, every
/// count worked out on several threads with one shared context (`memberCounts`), and a
/// reference's linked files read without its web links (`linkedFiles`). On the whole shared
/// corpus as one library (the bench library's references: above `EntryScan.parallelMinimum`, so
/// the parallel paths run) and on hostile libraries made as large.
@Suite("group counts: fast paths against the straightforward ones")
struct GroupScanEquivalenceTests {
    /// Every .bib of the corpora as one library (what make-bench-corpus.sh concatenates).
    private static let corpus: Library = LibraryLoader.load(paths: Fixtures.corpusBibFiles.map(\.path)).library

    /// References written to hurt the fast paths, repeated past the parallel threshold: names
    /// in `groups` that are blank, repeated, padded or differ in case; inline keys that differ
    /// from a reference's key in case only; duplicate keys; values given twice; links that
    /// are web links inside `file`, broken BibDesk files and Windows paths.
    private static let hostile: Library = {
        let block = """
            @article{Knuth84, author = {Knuth, Donald and Knuth, Donald}, keywords = {tex; tex, , ;}, year = 1984,
              groups = {g1, g1 ,  , g2,g1}, file = {:https\\://example.org/a.pdf:PDF;:C\\:\\\\Papers\\\\k.pdf:PDF;:b.PDF:}}
            @article{knuth84, author = {}, groups = { }, Bdsk-File-1 = {not base64!}, journal = {}}
            @book{k3, editor = {Lamport, Leslie}, groups = {G1}, journaltitle = {J}, url = {http://x.org}, doi = {10.1/X}}
            @misc{k4, groups = {,,,}, keywords = {,;,}, year = {}, type = {}}

            """
        let groups = """
            @comment{jabref-meta: grouping:
            0 AllEntriesGroup:;
            1 ExplicitGroup:g1\\;0\\;knuth84\\;K3\\;;
            2 StaticGroup:g2\\;1\\;1\\;\\;\\;\\;;
            1 StaticGroup:\\;2\\;1\\;\\;\\;\\;;
            1 ExplicitGroup:G1\\;2\\;Knuth84\\;;
            2 KeywordGroup:tex\\;1\\;keywords\\;tex\\;0\\;0\\;;
            }
            """
        return Fixtures.library(String(repeating: block, count: 2_600) + groups)
    }()

    private static let libraries: [(String, Library)] = [("corpus", corpus), ("hostile", hostile)]

    private static let extracts: [(String, @Sendable (Entry) -> [String])] = [
        ("author", { GroupCatalog.values(of: $0, field: "author") }),
        ("keywords", { GroupCatalog.values(of: $0, field: "keywords") }),
        ("year", { GroupCatalog.values(of: $0, field: "year") }),
        ("journal", { GroupCatalog.values(of: $0, field: "journal") }),
        ("type", { GroupCatalog.values(of: $0, field: "type") }),
        ("jabref groups", { Group.jabrefGroupNames($0) }),
    ]

    /// The value index as the one-thread loop made it before.
    private static func straightforwardIndex(_ entries: [Entry], _ extract: (Entry) -> [String]) -> [String: [Int]] {
        var index: [String: [Int]] = [:]
        for (position, entry) in entries.enumerated() {
            for value in Set(extract(entry)) { index[value, default: []].append(position) }
        }
        return index
    }

    @Test("The libraries are large enough for the parallel paths")
    func largeEnough() {
        for (_, library) in Self.libraries { #expect(library.entries.count >= EntryScan.parallelMinimum) }
        #expect(Self.corpus.entries.count > 40_000)
    }

    @Test("Value indexes on every core are the one-thread loop's", arguments: [0, 1])
    func valueIndexes(library number: Int) {
        let (name, library) = Self.libraries[number]
        for (field, extract) in Self.extracts {
            let fast = EntryScan.valueIndex(library.entries, extract: extract)
            #expect(fast == Self.straightforwardIndex(library.entries, extract), "\(name): \(field)")
        }
    }

    @Test("Columns and filters on every core are the one-thread loop's", arguments: [0, 1])
    func columns(library number: Int) {
        let (name, library) = Self.libraries[number]
        let titles = EntryScan.map(library.entries) { $0.title }
        #expect(titles == library.entries.map { $0.title }, "\(name)")
        let locator = FilesOnDisk()
        let places = EntryScan.map(library.entries) { Double(locator.place(of: $0).rawValue) }
        #expect(places == library.entries.map { Double(PDFPlace(locations: $0.links.files.filter(\.isPDF).map(locator.location)).rawValue) })
        let odd = EntryScan.filter(library.entries) { entry, position in position % 3 == 0 || entry.key.hasPrefix("k") }
        #expect(odd == library.entries.indices.filter { $0 % 3 == 0 || library.entries[$0].key.hasPrefix("k") }, "\(name)")
    }

    @Test("A reference's linked files alone are those of all its links", arguments: [0, 1])
    func linkedFiles(library number: Int) {
        let (name, library) = Self.libraries[number]
        for entry in library.entries where entry.linkedFiles != entry.links.files {
            Issue.record("\(name): \(entry.address): \(entry.linkedFiles) != \(entry.links.files)")
        }
    }

    @Test("JabRef static groups through the index are those the scan finds", arguments: [0, 1])
    func jabrefStaticGroups(library number: Int) throws {
        let (name, library) = Self.libraries[number]
        let context = GroupContext(library: library, locator: FilesOnDisk())
        var checked = 0
        // A JabRef static group's rule may be inside its parent's (intersection) or gather its children's (union).
        func statics(_ rule: Group.Rule) -> [Group.Rule] {
            switch rule {
            case .jabrefStatic: return [rule]
            case .intersection(let rules), .union(let rules): return rules.flatMap(statics)
            default: return []
            }
        }
        for group in GroupCatalog.flattened(GroupCatalog.groups(of: library, synced: false)) {
            for rule in statics(group.rule) {
                guard case .jabrefStatic(let groupName, let keys) = rule else { continue }
                checked += 1
                #expect(Group(name: groupName, kind: .jabref, rule: rule).members(in: library, context: context)
                        == Group.jabrefStaticScan(name: groupName, keys: keys, in: library), "\(name): \(group.name)")
            }
        }
        #expect(checked >= 4)
    }

    @Test("Field groups' parents and children count what reading every reference finds", arguments: [0, 1])
    func fieldGroups(library number: Int) {
        let (name, library) = Self.libraries[number]
        let context = GroupContext(library: library, locator: FilesOnDisk())
        let fields = ["author", "keywords", "year", "journal", "type"]
        let groups = GroupCatalog.fieldGroups(of: library, context: context)
        #expect(groups.map { $0.children.map(\.name) } == GroupCatalog.fieldGroups(of: library).map { $0.children.map(\.name) })
        for (group, field) in zip(groups, fields) {
            let values = library.entries.map { GroupCatalog.values(of: $0, field: field) }
            #expect(group.members(in: library, context: context) == values.indices.filter { !values[$0].isEmpty }, "\(name): \(field)")
            var distinct = Set<String>()
            for list in values { distinct.formUnion(list) }
            #expect(Set(group.children.map(\.name)) == distinct, "\(name): \(field)")
            for child in group.children.prefix(300) {
                #expect(child.members(in: library, context: context) == values.indices.filter { values[$0].contains(child.name) },
                        "\(name): \(field) \(child.name)")
            }
        }
    }

    @Test("Counts worked out together on every core are those worked out one after another", arguments: [0, 1])
    func memberCounts(library number: Int) {
        let (name, library) = Self.libraries[number]
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let groups = GroupCatalog.flattened(GroupCatalog.groups(of: library, synced: false))
        // The field groups' children are thousands: every 50th of them, and all the others.
        let chosen = groups.enumerated().filter { $0.element.kind != .field || $0.offset % 50 == 0 }.map(\.element)
        for _ in 0..<3 {
            let shared = GroupContext(library: library, locator: FilesOnDisk(), now: now)
            let counts = GroupCatalog.memberCounts(of: chosen, in: library, context: shared)
            let sequential = GroupContext(library: library, locator: FilesOnDisk(), now: now)
            let alone = chosen.map { group in
                group.unavailableReason == nil ? group.members(in: library, context: sequential).count : nil
            }
            #expect(counts == alone, "\(name)")
        }
    }

    @Test("Each field group counted from its index counts what each of its groups' members give",
          arguments: [0, 1])
    func fieldGroupCountedFromItsIndex(library number: Int) {
        let (name, library) = Self.libraries[number]
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for (title, field) in GroupCatalog.fieldGroupFields {
            let sequential = GroupContext(library: library, locator: FilesOnDisk(), now: now, threads: 1)
            let group = GroupCatalog.fieldGroup(title, field: field, in: library, context: nil)
            let expected = GroupCatalog.flattened([group]).map { $0.members(in: library, context: sequential).count }
            let counted = GroupCatalog.countedFieldGroup(title, field: field, in: library,
                                                         context: GroupContext(library: library, locator: FilesOnDisk(), now: now).onCallingThread())
            #expect(GroupCatalog.flattened([counted.group]).map(\.name) == GroupCatalog.flattened([group]).map(\.name), "\(name) \(field)")
            #expect(counted.counts == expected.map { Optional($0) }, "\(name) \(field)")
        }
    }

    @Test("The saved groups and the field groups counted as one list of jobs on every core count what counting the whole tree gives",
          arguments: [0, 1])
    func savedCountedWithFieldGroups(library number: Int) {
        let (name, library) = Self.libraries[number]
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let sequential = GroupContext(library: library, locator: FilesOnDisk(), now: now, threads: 1)
        let tree = GroupCatalog.savedGroups(of: library, synced: false) + GroupCatalog.fieldGroups(of: library, context: sequential)
        let expected = GroupCatalog.flattened(tree).map { group in
            group.unavailableReason == nil ? group.members(in: library, context: sequential).count : nil
        }
        // A race shows in 1 of 3 to 10 runs on a large library.
        for _ in 0..<10 {
            let context = GroupContext(library: library, locator: FilesOnDisk(), now: now)
            let saved = GroupCatalog.savedGroups(of: library, synced: false)
            let (fieldGroups, counts) = GroupCatalog.fieldGroupsAndCounts(of: library, saved: saved, context: context)
            #expect(GroupCatalog.flattened(saved + fieldGroups).map(\.name) == GroupCatalog.flattened(tree).map(\.name), "\(name)")
            #expect(counts == expected, "\(name)")
        }
    }
}
