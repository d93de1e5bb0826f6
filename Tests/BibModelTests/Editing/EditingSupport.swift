import BibModel
import BibreadTestSupport
import Foundation

/// A file that loads as no library (an empty file of the corpora).
struct NotALibrary: Error {}

/// A library file read for editing: its bytes, the library and the editor, as the writer will
/// make them.
struct EditingFixture {
    let path: String
    let bytes: [UInt8]
    let library: Library
    let editor: LibraryEditor

    /// Reads a file from disk.
    init(_ url: URL) throws {
        path = url.path
        bytes = Array(try Data(contentsOf: url))
        library = LibraryLoader.load(paths: [url.path]).library
        guard library.files.contains(where: { $0.source.path == url.path }) else { throw NotALibrary() }
        editor = try LibraryEditor(library: library, path: path, fileBytes: bytes)
    }

    /// Reads text given inline (written as bytes, as a file would hold them).
    init(bytes: [UInt8], path: String = "inline.bib") throws {
        self.path = path
        self.bytes = bytes
        library = Library.parse([(path: path, bytes: bytes)])
        editor = try LibraryEditor(library: library, path: path, fileBytes: bytes)
    }

    init(text: String) throws { try self.init(bytes: Array(text.utf8)) }

    /// 1 March 2024 10:22:33 in UTC+1, the clock of every edit here.
    static let clock = Date(timeIntervalSince1970: 1_709_284_953)
    static let zone = TimeZone(secondsFromGMT: 3600) ?? .current

    /// Applies the edits and checks the result as the writer will, before any rename.
    func edit(_ key: String, _ edits: EntryEdit...) throws -> EditResult {
        let result = try editor.apply(edits, to: EntryAddress(key), at: Self.clock, in: Self.zone)
        try EditCheck.verify(original: bytes, result: result, path: path)
        return result
    }

    /// The edits applied, or why they were refused.
    func attempt(_ edits: [EntryEdit], on address: EntryAddress) -> Result<EditResult, EditError> {
        do {
            return .success(try editor.apply(edits, to: address, at: Self.clock, in: Self.zone))
        } catch {
            return .failure(error)
        }
    }

    /// The writer's check of a result.
    func check(_ result: EditResult) -> Result<Void, EditError> {
        do {
            try EditCheck.verify(original: bytes, result: result, path: path)
            return .success(())
        } catch {
            return .failure(error)
        }
    }

    /// The lines that differ: the old file's and the new file's, common first and last lines left out.
    func diff(_ result: EditResult) -> (removed: [String], added: [String]) {
        Self.diff(bytes, result.bytes)
    }

    /// The lines only the old file has, and the lines only the new file has (in order; a line
    /// is told from another by its bytes, `\r` included).
    static func diff(_ old: [UInt8], _ new: [UInt8]) -> (removed: [String], added: [String]) {
        func lines(_ bytes: [UInt8]) -> [String] {
            bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        }
        let (before, after) = (lines(old), lines(new))
        var remaining = Dictionary(after.map { ($0, 1) }, uniquingKeysWith: +)
        var removed: [String] = []
        for line in before {
            if let count = remaining[line], count > 0 { remaining[line] = count - 1 } else { removed.append(line) }
        }
        var kept = Dictionary(before.map { ($0, 1) }, uniquingKeysWith: +)
        var added: [String] = []
        for line in after {
            if let count = kept[line], count > 0 { kept[line] = count - 1 } else { added.append(line) }
        }
        return (removed, added)
    }
}
