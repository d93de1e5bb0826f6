import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import BibreadCLI

/// `bibread groups`'s text written as bytes (printable ASCII labels padded byte by byte) is the
/// text built line by line through `DisplayWidth` before (issue 31, round 2): on the whole
/// corpus's group tree (the bench library's) and on hostile names: wide, combining and control
/// characters, names of 47, 48 and 49 columns and longer, deep nesting, groups that cannot be
/// shown here, counts missing and large.
@Suite("groups text: the byte path against the straightforward one")
struct GroupTreeTextTests {
    /// Names written to hurt the byte path.
    private static let hostileNames: [String] = {
        var names = ["", "a", "Knuth, D.", "東京大学", "Gödel", "e\u{301}cole", "🦀 crab", "❤\u{FE0F}", "tab\there",
                     "bell\u{7}", "del\u{7F}x", "cr\r\nlf", "\u{200B}zero", "—", "…", "x\u{0300}\u{0301}",
                     "ＡＢＣ", "\u{1}\u{1F}", "~!@#$%^&*()_+{}|:<>?`-=[];',./\"\\"]
        for length in [45, 46, 47, 48, 49, 50, 80] {
            names.append(String(repeating: "n", count: length))
            names.append(String(repeating: "東", count: length / 2))
            names.append(String(repeating: "n", count: length - 1) + "東")
        }
        return names
    }()

    /// A library whose field groups, JabRef groups (nested six deep) and BibDesk groups (a URL
    /// group among them, which cannot be shown here) carry the hostile names.
    private static let hostile: Library = {
        var text = ""
        for (number, name) in hostileNames.enumerated() {
            let braced = name.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
            text += "@misc{k\(number), keywords = {\(braced)}, journal = {\(braced)}, year = {\(number)}}\n"
        }
        var jabref = ["@comment{jabref-meta: grouping:", "0 AllEntriesGroup:;"]
        for (number, name) in hostileNames.enumerated() where !name.contains(";") && !name.contains("\\") {
            jabref.append("\(number % 6 + 1) StaticGroup:\(name)\\;0\\;1\\;\\;\\;\\;;")
        }
        jabref.append("}")
        let bibdesk = """
            @comment{BibDesk URL Groups{<?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict><key>group name</key><string>Remote 東京</string><key>URL</key><string>http://x</string></dict></array></plist>}}
            @comment{BibDesk Static Groups{<?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array><dict><key>group name</key><string>\(String(repeating: "s", count: 48))</string><key>keys</key><string>k1,k2</string></dict></array></plist>}}
            """
        return Fixtures.library(text + jabref.joined(separator: "\n") + "\n" + bibdesk)
    }()

    @Test("The byte path writes the straightforward text", arguments: [0, 1])
    func sameText(library number: Int) {
        let library = number == 0 ? LibraryLoader.load(paths: Fixtures.corpusBibFiles.map(\.path)).library : Self.hostile
        let groups = GroupCatalog.groups(of: library, synced: true)
        let flattened = GroupCatalog.flattened(groups)
        if number == 1 {
            #expect(flattened.contains { $0.unavailableReason != nil })
            #expect(flattened.count > Self.hostileNames.count * 2)
        } else {
            #expect(flattened.count > 20_000)
        }
        // Counts of every width, and missing ones.
        let patterns: [(Int) -> Int?] = [
            { $0 % 7 == 0 ? nil : $0 * 7919 % 10_000_000 },
            { _ in nil },
            { _ in Int.max },
            { $0 },
        ]
        for pattern in patterns {
            let counts = flattened.indices.map(pattern)
            let bytes = GroupTreeText.bytes(of: groups, counts: counts)
            let expected = Array(GroupTreeText.straightforwardText(of: groups, counts: counts).utf8)
            #expect(bytes == expected)
        }
        #expect(GroupTreeText.bytes(of: [], counts: []) == Array(GroupTreeText.straightforwardText(of: [], counts: []).utf8))
    }
}
