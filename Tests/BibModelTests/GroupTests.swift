import BibModel
import Foundation
import Testing
import BibreadTestSupport

/// BibDesk groups, written into a .bib exactly as BibDesk stores them, then read back.
@Suite("BibDesk groups")
struct BibDeskGroupTests {
    static let references = """
    @article{a, author = {Donald E. Knuth and Leslie Lamport}, title = {{TeX} and {LaTeX}}, year = 1984,
      keywords = {typesetting, fonts}, journal = {TUGboat}, Read = {1}, Rating = {4},
      Date-Added = {2026-11-22 09:00:00 +0000}, Bdsk-Url-1 = {https://example.org/a}, file = {:/papers/a.pdf:PDF}}
    @book{b, author = {Kurt G{\\"o}del}, title = {Incompleteness}, year = 1931, keywords = {logic}, Read = {no},
      Date-Added = {2026-11-21 12:00:00 +0000}}
    @misc{c, editor = {Ann Editor}, title = {Misc notes}, year = 2010, Date-Added = {2026-11-10 12:00:00 +0000}, Rating = {2}}
    @article{d, author = {X. Y.}, title = {Old}, year = 1999, keywords = {fonts; logic}, Date-Added = {2025-01-15 12:00:00 +0000}}

    """

    /// Sunday 22 November 2026, noon, UTC.
    static let now = Date(timeIntervalSince1970: 1_795_348_800)

    /// A library with one smart group holding `conditions` (key, comparison, value).
    private func members(_ conditions: [(String, Int, String)], conjunction: Int = 0) throws -> [String] {
        let conditionXML = conditions.map { key, comparison, value in
            "<dict><key>comparison</key><integer>\(comparison)</integer><key>key</key><string>\(key)</string>"
                + "<key>value</key><string>\(value)</string><key>version</key><string>1</string></dict>"
        }.joined()
        let text = Self.references + """
        @comment{BibDesk Smart Groups{<?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><array><dict><key>conditions</key><array>\(conditionXML)</array>
        <key>conjunction</key><integer>\(conjunction)</integer><key>group name</key><string>Test</string></dict></array></plist>
        }}
        """
        let library = Fixtures.library(text)
        let group = try #require(Group.find("Test", in: GroupCatalog.groups(of: library, synced: false)))
        #expect(group.kind == .smart)
        let context = GroupContext(library: library, locator: FilesOnDisk(), now: Self.now, timeZone: TimeZone(identifier: "UTC") ?? .current)
        return group.members(in: library, context: context).map { library.entries[$0].key }
    }

    /// (field, comparison, value, expected members)
    static let text: [(String, Int, String, [String])] = [
        ("Title", 2, "tex", ["a"]), ("Title", 3, "tex", ["b", "c", "d"]),
        ("Year", 4, "1931", ["b"]), ("Year", 5, "1931", ["a", "c", "d"]),
        ("Title", 6, "in", ["b"]), ("Title", 7, "NOTES", ["c"]),
        ("Year", 8, "2000", ["a", "b", "d"]), ("Year", 9, "2000", ["c"]),
        ("Keywords", 0, "fonts", ["a", "d"]), ("Keywords", 1, "fonts", ["b", "c"]),
        ("Author", 0, "Lamport", ["a"]), ("Author", 0, "Kurt Gödel", ["b"]), ("Author", 0, "Lamp", []),
        ("Cite Key", 4, "b", ["b"]), ("BibTeX Type", 4, "book", ["b"]), ("Any Field", 2, "incompleteness", ["b"]),
        ("Any Field", 2, "tugboat", ["a"]), ("Rating", 9, "3", ["a"]), ("", 2, "anything", ["a", "b", "c", "d"]),
        // Needles at the start and end of a value, all of it, longer than it, and absent.
        ("Title", 2, "inco", ["b"]), ("Title", 2, "ness", ["b"]), ("Title", 2, "incompleteness", ["b"]),
        ("Title", 2, "incompletenessx", []), ("Title", 2, "qz", []), ("Title", 2, "c n", ["c"]),
    ]

    @Test(arguments: text)
    func textComparisons(_ field: String, _ comparison: Int, _ value: String, _ expected: [String]) throws {
        #expect(try members([(field, comparison, value)]) == expected)
    }

    static let dates: [(Int, String, [String])] = [
        (0, "", ["a"]), (1, "", ["b"]), (2, "", ["a"]), (3, "", ["b"]),
        (4, "12 1", ["c"]), (5, "2 1", ["a", "b"]), (6, "2 1", ["c", "d"]), (7, "1 12 1", ["b", "c"]),
        (5, "1 3", ["a", "b", "c"]), (5, "2 4", ["a", "b", "c", "d"]), (4, "1 4", ["d"]),
        (8, "2026-11-21 00:00:00 +0000", ["b"]), (9, "2026-11-15 00:00:00 +0000", ["a", "b"]),
        (10, "2026-01-01 00:00:00 +0000", ["d"]),
        (11, "2026-11-01 00:00:00 +0000 to 2026-11-21 00:00:00 +0000", ["b", "c"]),
    ]

    @Test(arguments: dates)
    func dateComparisons(_ comparison: Int, _ value: String, _ expected: [String]) throws {
        #expect(try members([("Date-Added", comparison, value)]) == expected)
    }

    static let linked: [(String, Int, String, [String])] = [
        ("Local File", 0, "1", ["a"]), ("Local File", 1, "0", ["a"]), ("Local File", 2, "0", ["a"]),
        ("Local File", 3, "1", ["b", "c", "d"]), ("Local File", 4, "a.pdf", ["a"]), ("Local File", 5, "a.pdf", ["b", "c", "d"]),
        ("Local File", 6, "/papers", ["a"]), ("Local File", 7, ".PDF", ["a"]),
        ("Remote URL", 4, "example.org", ["a"]), ("Remote URL", 0, "0", ["b", "c", "d"]),
    ]

    @Test(arguments: linked)
    func linkedComparisons(_ field: String, _ comparison: Int, _ value: String, _ expected: [String]) throws {
        #expect(try members([(field, comparison, value)]) == expected)
    }

    static let booleans: [(Int, String, [String])] = [
        (4, "1", ["a"]), (4, "Yes", ["a"]), (5, "1", ["b", "c", "d"]), (4, "0", ["b", "c", "d"]),
    ]

    @Test(arguments: booleans)
    func readFlag(_ comparison: Int, _ value: String, _ expected: [String]) throws {
        #expect(try members([("Read", comparison, value)]) == expected)
    }

    @Test func conjunctions() throws {
        #expect(try members([("Year", 8, "2000"), ("Keywords", 0, "fonts")], conjunction: 0) == ["a", "d"])
        #expect(try members([("Title", 2, "misc"), ("Year", 4, "1931")], conjunction: 1) == ["b", "c"])
        #expect(try members([], conjunction: 0) == ["a", "b", "c", "d"])
    }

    @Test func sampleLibraryGroups() throws {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        let groups = GroupCatalog.groups(of: library, synced: false)
        let context = GroupContext(library: library, locator: FilesOnDisk())
        let toRead = try #require(Group.find("To read", in: groups))
        #expect(toRead.kind == .static)
        #expect(toRead.members(in: library, context: context).map { library.entries[$0].key } ==
                ["turing1936computable", "heyl2023understanding", "geisberger2008contraction", "muller2015fundamentals"])
        let before1960 = try #require(Group.find("Before 1960", in: groups))
        #expect(before1960.members(in: library, context: context).map { library.entries[$0].key } ==
                ["goedel1931formal", "dijkstra1959note", "shannon1948mathematical", "turing1936computable", "erdos1959random"])
        #expect(Group.find("Authors/Knuth", in: groups)?.members(in: library, context: context).count == 3)
        #expect(Group.find("With PDF", in: groups)?.members(in: library, context: context).count == 5)
    }

    @Test func escapesAndUnavailableGroups() throws {
        let text = Self.references + """
        @comment{BibDesk Static Groups{<?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><dict><key>group name</key><string>%7Bbraces%7D %40 100%25</string>
        <key>keys</key><string>a,d</string></dict></array></plist>
        }}
        @comment{BibDesk URL Groups{<?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><dict><key>group name</key><string>Remote</string><key>URL</key><string>http://x/y.bib</string></dict></array></plist>
        }}
        """
        let library = Fixtures.library(text)
        let groups = GroupCatalog.groups(of: library, synced: false)
        let escaped = try #require(Group.find("{braces} @ 100%", in: groups))
        #expect(escaped.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk())).count == 2)
        let remote = try #require(Group.find("Remote", in: groups))
        #expect(remote.kind == .url)
        #expect(remote.unavailableReason != nil)
    }
}

/// JabRef groups from `jabref-meta` comments, both formats, every group type and context.
@Suite("JabRef groups")
struct JabRefGroupTests {
    static let references = """
    @article{a, author = {Donald Knuth}, title = {Fonts}, keywords = {typesetting, fonts}, groups = {Reading, Other}}
    @article{b, author = {Kurt Gödel}, title = {Logic}, keywords = {logic, Fonts-Extra}, groups = {Other}}
    @book{c, author = {Ann Smith and Knuth, Donald}, title = {Type}, keywords = {typesetting}}

    """

    private func members(_ grouping: String, _ path: String) throws -> [String] {
        let library = Fixtures.library(Self.references + grouping)
        let group = try #require(Group.find(path, in: GroupCatalog.groups(of: library, synced: false)), "no group \(path)")
        return group.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk())).map { library.entries[$0].key }
    }

    static let grouping = """
    @Comment{jabref-meta: grouping:
    0 AllEntriesGroup:;
    1 StaticGroup:Reading\\;0\\;1\\;0x8a8a8aff\\;\\;\\;;
    2 KeywordGroup:Typeset\\;1\\;keywords\\;typesetting\\;0\\;0\\;1\\;\\;\\;\\;;
    1 KeywordGroup:Fonts word\\;0\\;keywords\\;fonts\\;0\\;0\\;1\\;\\;\\;\\;;
    1 KeywordGroup:Fonts exact case\\;0\\;keywords\\;Fonts\\;1\\;0\\;1\\;\\;\\;\\;;
    1 KeywordGroup:Regex\\;0\\;title\\;^(Fo|Ty)\\;0\\;1\\;1\\;\\;\\;\\;;
    1 SearchGroup:Search\\;0\\;author = knuth and not title == Type\\;0\\;0\\;1\\;\\;\\;\\;;
    1 SearchGroup:Regex search\\;0\\;title =~ "^L.g"\\;0\\;1\\;1\\;\\;\\;\\;;
    1 SearchGroup:Regex flag\\;0\\;title = ^lo\\;0\\;1\\;1\\;\\;\\;\\;;
    1 StaticGroup:Parent\\;2\\;1\\;\\;\\;\\;;
    2 StaticGroup:Other\\;0\\;1\\;\\;\\;\\;;
    1 AutomaticKeywordGroup:By keyword\\;0\\;keywords\\;,\\;>\\;1\\;\\;\\;\\;;
    1 AutomaticPersonsGroup:By author\\;0\\;author\\;1\\;\\;\\;\\;;
    1 StaticGroup:Semi\\\\\\;colon\\;0\\;1\\;\\;\\;\\;;
    }
    """

    /// (group path, expected members)
    static let cases: [(String, [String])] = [
        ("Reading", ["a"]),
        ("Reading/Typeset", ["a"]),          // intersection with its parent: c has the keyword but is not in Reading
        ("Fonts word", ["a", "b"]),          // a whole word, any case: `Fonts-Extra` has it too
        ("Fonts exact case", ["b"]),         // case-sensitive: only `Fonts-Extra` has `Fonts`
        ("Other", ["a", "b"]),
        ("Regex", ["a", "c"]),
        ("Search", ["a"]),
        ("Regex search", ["b"]),
        ("Regex flag", ["b"]),               // with the regex flag `=` takes a regular expression
        ("Parent", ["a", "b"]),              // union with its child Other
        ("By keyword/typesetting", ["a", "c"]),
        ("By author/Knuth", ["a", "c"]),
    ]

    @Test(arguments: cases)
    func groupMembers(_ path: String, _ expected: [String]) throws {
        #expect(try members(Self.grouping, path) == expected)
    }

    @Test func escapedSemicolonsStayInNames() throws {
        let library = Fixtures.library(Self.references + Self.grouping)
        #expect(Group.find("Semi;colon", in: GroupCatalog.groups(of: library, synced: false)) != nil)
    }

    @Test func oldGroupstreeWithInlineKeys() throws {
        let tree = """
        @comment{jabref-meta: groupstree:
        0 AllEntriesGroup:;
        1 ExplicitGroup:Group1\\;2\\;a\\;;
        2 ExplicitGroup:Group1a\\;2\\;b\\;c\\;;
        1 ExplicitGroup:Empty\\;0\\;;
        }
        """
        #expect(try members(tree, "Group1") == ["a", "b", "c"])
        #expect(try members(tree, "Group1/Group1a") == ["b", "c"])
        #expect(try members(tree, "Empty") == [])
    }

    @Test func biberGroupstreeWithUnicodeNames() throws {
        let library = Fixtures.library(at: Fixtures.corpus("bib/biber/t_tdata_tool.bib"))
        let courses = try #require(Group.find("Doktorandkurser", in: GroupCatalog.groups(of: library, synced: false)))
        #expect(courses.kind == .jabref)
        #expect(courses.children.map(\.name) == [
            "Från könsroll till genus", "Historiska och filosofiska perspektiv på psykologi", "Kurs i introduktion",
            "Fenomenologi, kön och genus", "Quantitative Research Methods", "Multivariate Analysis",
        ])
        // No entry of that file has a `course` field: every keyword group is empty, none fails.
        #expect(courses.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk())).isEmpty)
    }

    @Test func realJabRefFilesFromTheCorpus() throws {
        let library = Fixtures.library(at: Fixtures.corpus("bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-3.bib"))
        let groups = GroupCatalog.groups(of: library, synced: false)
        let context = GroupContext(library: library, locator: FilesOnDisk())
        let group1 = try #require(Group.find("Group1", in: groups))
        #expect(group1.kind == .jabref)
        #expect(group1.children.map(\.name) == ["Group1a", "Group1b"])
        #expect(group1.members(in: library, context: context).map { library.entries[$0].key }.sorted() ==
                ["Marvin2020", "Venkateshaiah2020", "Xie2020"])
        let jabref5 = Fixtures.library(at: Fixtures.corpus("bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib"))
        let markings = try #require(Group.find("Markings/jfd1:1", in: GroupCatalog.groups(of: jabref5, synced: false)))
        #expect(markings.members(in: jabref5, context: GroupContext(library: jabref5, locator: FilesOnDisk())).count == 1)
    }
}
