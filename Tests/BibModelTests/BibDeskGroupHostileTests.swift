import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// BibDesk group comments written to hurt: the plist reader refuses them without recursing or
/// crashing, the comment gives no groups and a warning, and the rest of the library works.
@Suite("BibDesk groups from hostile comments")
struct BibDeskGroupHostileTests {
    private static let path = "/lib/hostile.bib"

    private static let references = """
        @article{a, author = {Donald Knuth}, title = {One}, year = 2001}
        @book{b, author = {Kurt Gödel}, title = {Two}, year = 1950}

        """

    /// Groups that are fine, after the hostile comment: a static and a smart one.
    private static let goodGroups = """

        @comment{BibDesk Static Groups{<?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><dict><key>group name</key><string>Mine</string><key>keys</key><string>a</string></dict></array></plist>
        }}
        @comment{BibDesk Smart Groups{<?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><dict><key>conditions</key><array><dict><key>comparison</key><integer>8</integer>
        <key>key</key><string>Year</string><key>value</key><string>1960</string></dict></array>
        <key>conjunction</key><integer>0</integer><key>group name</key><string>Old</string></dict></array></plist>
        }}

        """

    /// A library of the references, a `BibDesk <kind> Groups` comment holding `plist`, then the
    /// good groups.
    private func library(kind: String, plist: [UInt8]) -> Library {
        let bytes = Array(Self.references.utf8) + Array("@comment{BibDesk \(kind) Groups{".utf8) + plist + Array("}}\n".utf8)
            + Array(Self.goodGroups.utf8)
        return Library.parse([(path: Self.path, bytes: bytes)])
    }

    /// Checks that the entries and the good groups are all there, and that the hostile comment
    /// gave nothing but one warning at its line.
    private func expectIntact(_ library: Library, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(library.entries.map(\.key) == ["a", "b"], sourceLocation: sourceLocation)
        let groups = GroupCatalog.groups(of: library, synced: false)
        let context = GroupContext(library: library, locator: FilesOnDisk())
        let mine = try #require(Group.find("Mine", in: groups), sourceLocation: sourceLocation)
        #expect(mine.members(in: library, context: context) == [0], sourceLocation: sourceLocation)
        let old = try #require(Group.find("Old", in: groups), sourceLocation: sourceLocation)
        #expect(old.members(in: library, context: context) == [1], sourceLocation: sourceLocation)
        #expect(groups.filter { $0.kind == .static || $0.kind == .smart }.map(\.name) == ["Mine", "Old"],
                sourceLocation: sourceLocation)
        let warnings = GroupCatalog.diagnostics(of: library)
        #expect(warnings.count == 1, sourceLocation: sourceLocation)
        #expect(warnings.first?.severity == .warning, sourceLocation: sourceLocation)
        #expect(warnings.first?.path == Self.path, sourceLocation: sourceLocation)
        #expect(warnings.first?.location.line == 3, sourceLocation: sourceLocation)
    }

    @Test("100,000 nested arrays load without a crash and are reported", arguments: ["Static", "Smart", "URL"])
    func deepArrays(kind: String) throws {
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">" + String(repeating: "<array>", count: 100_000)
            + String(repeating: "</array>", count: 100_000) + "</plist>\n"
        let library = library(kind: kind, plist: Array(plist.utf8))
        try expectIntact(library)
        #expect(GroupCatalog.diagnostics(of: library).first?.message.contains("nests values deeper than") == true)
    }

    @Test("100,000 unclosed nested dictionaries load without a crash")
    func deepUnclosedDictionaries() throws {
        let plist = "<plist>" + String(repeating: "<array><dict><key>conditions</key>", count: 100_000)
        try expectIntact(library(kind: "Smart", plist: Array(plist.utf8)))
    }

    @Test("invalid UTF-8 in a group comment loads without a crash", arguments: [
        [0xFF, 0xFE], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82],
    ] as [[UInt8]])
    func invalidUTF8(bad: [UInt8]) throws {
        // In an element name the bytes break the plist whatever encoding the file is read in.
        let plist = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><array><dict><".utf8) + bad
            + Array("/></dict></array></plist>\n".utf8)
        try expectIntact(library(kind: "Static", plist: plist))
        // In a string it may still be read (as Windows-1252): never a crash, the rest intact.
        let inText = Array("<plist><array><dict><key>group name</key><string>".utf8) + bad
            + Array("</string><key>keys</key><string>b</string></dict></array></plist>".utf8)
        let library = library(kind: "Static", plist: inText)
        #expect(library.entries.map(\.key) == ["a", "b"])
        #expect(Group.find("Mine", in: GroupCatalog.groups(of: library, synced: false)) != nil)
    }

    @Test("a comment that holds something other than an array of groups gives a warning")
    func notAnArray() throws {
        try expectIntact(library(kind: "Static", plist: Array("<plist><string>groups</string></plist>".utf8)))
    }
}
