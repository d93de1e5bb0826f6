import BibModel
import BibreadTestSupport
import Foundation
import Testing

/// Every kind of block that a later chunk must hand back to the whole file (document info,
/// macros, preambles, group comments, crossref parents, duplicate keys), placed in a chunk after
/// the first of a real file: the library is exactly that of one pass.
///
/// A later chunk numbers field names in a store of its own until it is joined; anything that
/// reads a name through the file's store before then gets another name, or reads past its end
/// while the first chunk's thread is writing it (`@bibdesk_info` did: "Index out of range" on a
/// dispatch worker for a BibDesk library appended to a few MB of other entries).
@Suite("Special blocks in a later chunk")
struct LateChunkTests {
    /// A block that a later chunk holds, with the entries around it that depend on it.
    struct Block: CustomTestStringConvertible, Sendable {
        let kind: String
        let text: String
        var testDescription: String { kind }
    }

    /// Field names the earlier part of the file never uses, so that a later chunk numbers them
    /// past the end of what the first chunk's store holds when it is read too early.
    static let unusualNames = (1...40).map { "x-late-field-\($0)" }

    static let blocks: [Block] = [
        Block(kind: "@bibdesk_info with plain values, after fields new to the chunk", text: """
            @misc{late-names, \(unusualNames.map { "\($0) = {v}" }.joined(separator: ", "))}
            @bibdesk_info{document_info,
              Bdsk-Document-Name = {Merged library},
              x-late-field-40 = {forty},
              Zz-Only-Here = {last}
            }
            """),
        Block(kind: "@bibdesk_info first in its chunk", text: """
            @bibdesk_info{document_info, Document-Title = {Lab papers}, Sort-Key = {Date-Added}}
            @misc{after-info, title = {After the info}}
            """),
        Block(kind: "@string defined late and used after it", text: """
            @string{lateJournal = "Journal of Late Chunks"}
            @article{uses-late, journal = lateJournal # " (second series)", title = {T}, year = 2020}
            """),
        Block(kind: "@preamble", text: """
            @preamble{"\\newcommand{\\noopsort}[1]{}"}
            @misc{after-preamble, title = {\\noopsort{a}Title}}
            """),
        Block(kind: "BibDesk static and smart group comments", text: """
            @misc{grouped-late, title = {Grouped}, keywords = {late}}
            @comment{BibDesk Static Groups{
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <array>
            \t<dict>
            \t\t<key>group name</key>
            \t\t<string>Late static</string>
            \t\t<key>keys</key>
            \t\t<string>grouped-late,uses-nothing</string>
            \t</dict>
            </array>
            </plist>
            }}
            @comment{BibDesk Smart Groups{
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <array>
            \t<dict>
            \t\t<key>conditions</key>
            \t\t<array>
            \t\t\t<dict>
            \t\t\t\t<key>comparison</key>
            \t\t\t\t<integer>2</integer>
            \t\t\t\t<key>key</key>
            \t\t\t\t<string>Keywords</string>
            \t\t\t\t<key>value</key>
            \t\t\t\t<string>late</string>
            \t\t\t\t<key>version</key>
            \t\t\t\t<string>1</string>
            \t\t\t</dict>
            \t\t</array>
            \t\t<key>conjunction</key>
            \t\t<integer>0</integer>
            \t\t<key>group name</key>
            \t\t<string>Late smart</string>
            \t</dict>
            </array>
            </plist>
            }}
            """),
        Block(kind: "JabRef group comment", text: """
            @misc{jabref-late, title = {In a JabRef group}, groups = {Late JabRef}}
            @comment{jabref-meta: databaseType:bibtex;}
            @comment{jabref-meta: grouping:
            0 AllEntriesGroup:;
            1 StaticGroup:Late JabRef\\;0\\;1\\;\\;\\;\\;;
            1 KeywordGroup:Late keywords\\;0\\;keywords\\;late\\;0\\;0\\;1\\;\\;\\;\\;;
            }
            """),
        Block(kind: "crossref parent in the late chunk, children before and after", text: """
            @inproceedings{child-after, crossref = {late-parent}, title = {Child after}, pages = {1--2}}
            @proceedings{late-parent, title = {Proceedings of the Late Chunk}, year = 2021, publisher = {P}, x-late-field-7 = {inherited}}
            @inproceedings{child-later, crossref = {late-parent}, title = {Child later}}
            """),
        Block(kind: "duplicate key of an entry in the first chunk", text: """
            @misc{early-entry, title = {The second with this key}}
            @misc{EARLY-ENTRY, title = {The third, in other case}}
            """),
    ]

    /// The earlier part: a real file of about 200 kB, with one entry whose key the late blocks
    /// reuse and one child whose crossref parent comes late.
    static func earlierPart() throws -> String {
        let corpus = try String(contentsOf: Fixtures.corpus("bib/beebe/texbook1.bib"), encoding: .utf8)
        return corpus + """

            @misc{early-entry, title = {The first with this key}}
            @inproceedings{child-before, crossref = {late-parent}, title = {Child before}}

            """
    }

    @Test(arguments: blocks)
    func blockInALateChunkReadsAsInOnePass(_ block: Block) throws {
        let earlier = try Self.earlierPart()
        let later = "\n" + block.text + "\n@misc{last-entry, title = {Last}}\n"
        let bytes = Array((earlier + later).utf8)
        let blockStart = earlier.utf8.count + 1
        let middle = try #require(Self.lineStartOfEntry(in: bytes, near: earlier.utf8.count / 2))
        let expected = Self.describe(bytes, chunkStarts: [])
        #expect(expected.contains { $0.contains("last-entry") })
        // The block first in its chunk, inside a chunk, and at every entry start after it.
        let entryStarts = Self.entryStarts(in: bytes).filter { $0 >= blockStart }
        #expect(!entryStarts.isEmpty)
        for starts in [[blockStart], [middle, blockStart], [middle], [middle] + entryStarts] {
            let actual = Self.describe(bytes, chunkStarts: starts)
            #expect(actual == expected, "chunks at \(starts): first difference \(Self.firstDifference(actual, expected))")
        }
    }

    /// A BibDesk library (groups, linked files, document info) appended to a few MB of other
    /// entries, read as the loader reads it (chunks of its own choosing, on every core), many
    /// times: the same library as one pass every time.
    @Test func bibDeskLibraryAppendedToALargeFile() throws {
        let large = try String(contentsOf: Fixtures.corpus("bib/beebe/tugboat.bib"), encoding: .utf8)
        let bibDesk = try String(contentsOf: Fixtures.samples.appendingPathComponent("library.bib"), encoding: .utf8)
        let info = "@bibdesk_info{document_info, \(Self.unusualNames.map { "\($0) = {v}" }.joined(separator: ", "))}\n"
        let bytes = Array((large + "\n" + bibDesk + "\n" + info).utf8)
        let expected = Self.describe(bytes, chunkStarts: [])
        #expect(expected.contains("info x-late-field-40 = v"))
        for round in 1...5 {
            let actual = Self.describe(bytes, chunkStarts: nil)
            #expect(actual == expected, "round \(round): first difference \(Self.firstDifference(actual, expected))")
        }
    }

    /// The bench library (every UTF-8 corpus file, about 26 MB, with its duplicate keys and
    /// broken files) with every kind of special block after it, read in chunks again and again:
    /// a race shows up in one run of 3 to 10 on a file this size, rarely on a small one.
    /// `BIBREAD_STRESS_ROUNDS` sets the rounds (1 by default; `scripts/parse-stress.sh` runs
    /// hundreds, and again under ThreadSanitizer).
    @Test func largeLibraryReadInChunksAgainAndAgain() throws {
        let rounds = Int(ProcessInfo.processInfo.environment["BIBREAD_STRESS_ROUNDS"] ?? "") ?? 1
        var text = ""
        for url in Fixtures.corpusBibFiles {
            guard let file = try? String(contentsOf: url, encoding: .utf8) else { continue }
            text += file + "\n"
        }
        text += try String(contentsOf: Fixtures.samples.appendingPathComponent("library.bib"), encoding: .utf8)
        text += Self.blocks.map(\.text).joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        #expect(bytes.count > 20 << 20, "the bench library is \(bytes.count) bytes")
        let expected = Self.describe(bytes, chunkStarts: [])
        let starts = Self.entryStarts(in: bytes)
        let manyChunks = (1..<16).map { starts[starts.count * $0 / 16] }
        for round in 1...rounds {
            // Chunks of the loader's choosing (one a core), then sixteen: more chunks than cores.
            for chunkStarts in [nil, manyChunks] {
                let actual = Self.describe(bytes, chunkStarts: chunkStarts)
                #expect(actual == expected, "round \(round), chunks at \(chunkStarts.map { "\($0)" } ?? "the loader's choice"): first difference \(Self.firstDifference(actual, expected))")
            }
        }
    }

    // MARK: - Helpers

    /// Everything a reading gives, library-wide: entries by address with every field (inherited
    /// ones too), document info, groups with their members, diagnostics.
    static func describe(_ bytes: [UInt8], chunkStarts: [Int]?) -> [String] {
        var macros = MacroTable()
        let file = BibFile.parse(bytes: bytes, path: "late.bib", macros: &macros, chunkStarts: chunkStarts)
        var lines = file.documentInfo.sorted { $0.key < $1.key }.map { "info \($0.key) = \($0.value)" }
        lines += file.preambles.map { "preamble: \($0.text)" }
        lines += file.strings.map { "string \($0) = \(macros[$0] ?? "undefined")" }
        let library = Library(files: [file])
        for entry in library.entries {
            lines.append("@\(entry.type){\(entry.address) at \(entry.location)")
            for field in entry.fields {
                lines.append("  \(entry.spelledName(of: field)) #\(field.nameNumber) = \(entry.rawText(of: field))")
            }
        }
        func walk(_ groups: [Group], _ depth: Int) {
            for group in groups {
                let members = group.members(in: library, context: GroupContext(library: library, locator: FilesOnDisk()))
                lines.append(String(repeating: "  ", count: depth) + "group \(group.name): \(members.count)")
                walk(group.children, depth + 1)
            }
        }
        walk(GroupCatalog.savedGroups(of: library, synced: false), 0)
        lines += library.diagnostics.map(\.description)
        return lines
    }

    static func entryStarts(in bytes: [UInt8]) -> [Int] {
        bytes.indices.filter { bytes[$0] == UInt8(ascii: "@") && ($0 == 0 || bytes[$0 - 1] == 0x0A) }
    }

    static func lineStartOfEntry(in bytes: [UInt8], near offset: Int) -> Int? {
        entryStarts(in: bytes).first { $0 >= offset }
    }

    static func firstDifference(_ actual: [String], _ expected: [String]) -> String {
        for (index, (a, e)) in zip(actual, expected).enumerated() where a != e {
            return "line \(index): got «\(a)», one pass gives «\(e)»"
        }
        return actual.count == expected.count ? "none" : "\(actual.count) lines, one pass gives \(expected.count)"
    }
}
