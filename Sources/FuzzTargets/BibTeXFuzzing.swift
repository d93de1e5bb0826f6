import BibModel
import Foundation

/// The BibTeX side: a library end to end, and the decoders a library's values go through.
enum BibTeXFuzzing {
    /// Where fuzzed libraries claim to live (linked files resolve against it; nothing is read).
    static let libraryPath = "/nonexistent/fuzz/library.bib"

    /// Parses `bytes` as a .bib file and computes everything `bibread list` and the reader show.
    static func library(_ bytes: [UInt8]) throws {
        let library = Library.parse([(path: libraryPath, bytes: bytes)])
        try checkDiagnostics(of: library, lineCount: bytes.lazy.filter { $0 == 0x0A }.count + 1)
        for entry in library.entries {
            try display(entry)
        }
        try evaluateGroups(of: library)
        _ = SearchIndex(entries: library.entries).search(.words(field: nil, ["a"]))
    }

    /// Every value of `entry` as shown, and its BibTeX copy read back.
    static func display(_ entry: Entry) throws {
        _ = entry.authors.display
        _ = entry.editors.display
        _ = entry.creators.names.map(\.fullName)
        _ = entry.title
        _ = entry.year
        _ = entry.citation
        _ = entry.links
        _ = entry.location
        for field in entry.fields {
            _ = entry.decodedText(of: field)
        }
        let copy = entry.bibTeX
        let reread = Library.parse([(path: libraryPath, bytes: Array(copy.utf8))])
        try check(reread.entries.contains { $0.key == entry.key },
                  "the BibTeX copy of \(entry.key.debugDescription) does not read back as that key:\n\(copy)")
    }

    /// Diagnostics point inside the text: a line that exists and a column from 1.
    static func checkDiagnostics(of library: Library, lineCount: Int) throws {
        for diagnostic in library.diagnostics where diagnostic.path == libraryPath {
            let location = diagnostic.location
            try check(location.line >= 1 && location.line <= lineCount && location.column >= 1,
                      "diagnostic outside the text (\(lineCount) lines): \(diagnostic)")
        }
    }

    /// Every group of the library and its members, on a fixed date.
    static func evaluateGroups(of library: Library) throws {
        let context = GroupContext(library: library, locator: NoLinkedFiles(), now: Date(timeIntervalSince1970: 1_700_000_000),
                                   timeZone: TimeZone(identifier: "UTC") ?? .current)
        for group in GroupCatalog.groups(of: library, synced: false) {
            let members = group.members(in: library, context: context)
            try check(members.allSatisfy { library.entries.indices.contains($0) },
                      "group \(group.name.debugDescription) has members outside the library")
        }
    }

    /// LaTeX decoding of `bytes` as text and as raw bytes.
    static func laTeX(_ bytes: [UInt8]) {
        _ = LaTeX.decode(String(decoding: bytes, as: UTF8.self))
        bytes.withUnsafeBufferPointer { buffer in
            _ = LaTeX.decode(buffer)
            _ = LaTeX.isPlain(buffer)
        }
        _ = LaTeX.decodeVerbatim(String(decoding: bytes, as: UTF8.self))
    }

    /// Name splitting and every display form.
    static func names(_ bytes: [UInt8]) {
        let list = NameList(raw: String(decoding: bytes, as: UTF8.self))
        _ = list.display
        for name in list.names {
            _ = name.fullName
            _ = name.shortName
        }
    }

    /// A few entries for group and search targets to select from.
    static let sampleEntries = """
        @string{tug = "TUGboat"}
        @article{knuth84, author = {Donald E. Knuth}, title = {Literate Programming}, journal = tug,
          year = 1984, keywords = {tex, programming}, read = {1}, month = jan}
        @book{lamport94, author = {Leslie Lamport}, title = {{\\LaTeX}: A Document Preparation System},
          publisher = {Addison-Wesley}, year = {1994}, date-added = {2020-01-01 10:00:00 +0000}}
        @inproceedings{plass81, author = {Michael F. Plass and Donald E. Knuth}, title = {Breaking
          Paragraphs into Lines}, crossref = {proc81}, pages = {1--10}}
        @proceedings{proc81, title = {Software: Practice and Experience}, year = {1981}}

        """

    /// BibDesk's group comments with `bytes` as their plist.
    static func bibDeskGroups(_ bytes: [UInt8]) throws {
        let plist = String(decoding: bytes, as: UTF8.self)
        let text = sampleEntries + "@comment{BibDesk Static Groups{\n\(plist)\n}}\n@comment{BibDesk Smart Groups{\n\(plist)\n}}\n"
        let library = Library.parse([(path: libraryPath, bytes: Array(text.utf8))])
        try evaluateGroups(of: library)
    }

    /// JabRef's group comment with `bytes` as its tree.
    static func jabRefGroups(_ bytes: [UInt8]) throws {
        let tree = String(decoding: bytes, as: UTF8.self)
        let text = sampleEntries + "@comment{jabref-meta: grouping:\n\(tree)}\n@comment{jabref-meta: groupstree:\n\(tree)}\n"
        let library = Library.parse([(path: libraryPath, bytes: Array(text.utf8))])
        try evaluateGroups(of: library)
    }

    /// `Bdsk-File` decoding: `bytes` as the plist (base64-encoded here) and as the field text.
    static func bdskFile(_ bytes: [UInt8]) {
        _ = BibDeskFile.relativePath(fromBase64: Data(bytes).base64EncodedString())
        _ = BibDeskFile.relativePath(fromBase64: String(decoding: bytes, as: UTF8.self))
    }
}
