import Foundation
import PropertyList

/// The union of one or more .bib files: every reference, addressable by cite key.
public struct Library: Sendable {
    /// The files read, in the order given; their entries are in `entries`, not here.
    public let files: [BibFile]
    /// Every reference of every file, in order, with `crossref` fields inherited.
    public private(set) var entries: [Entry]
    /// Every problem found, file by file, then the library-wide ones (duplicates, crossref).
    public let diagnostics: [Diagnostic]
    private let keyIndex: KeyIndex

    /// Builds the library from files already parsed (sharing one macro table, in order).
    ///
    /// The entries move into `entries`; the stored `files` keep everything else.
    public init(files: consuming [BibFile]) {
        self.init(files: files, preparingLineNumbers: false)
    }

    /// Builds the library; with `preparingLineNumbers`, the files' line numbers are worked out
    /// on another thread once the keys are indexed (on two threads), while `crossref` fields
    /// are resolved (on one).
    init(files: consuming [BibFile], preparingLineNumbers: Bool) {
        var entries: [Entry] = []
        for index in files.indices {
            // The first file's entries move without a copy (copying 100,000 entries retains
            // and releases each of their references).
            if entries.isEmpty {
                entries = files[index].entries
            } else {
                entries.append(contentsOf: files[index].entries)
            }
            files[index].entries = []
        }
        var diagnostics = files.flatMap(\.diagnostics)
        let (keyIndex, duplicates) = KeyIndex.build(entries)
        for duplicate in duplicates {
            let (index, occurrence) = (duplicate.index, duplicate.occurrence)
            entries[index].occurrence = occurrence
            // Only what the message needs, so that thousands of duplicates copy no entries.
            let key = entries[index].key
            let firstSource = entries[duplicate.first].source
            let firstOffset = entries[duplicate.first].offset
            diagnostics.append(Diagnostic(.warning, source: entries[index].source, offset: entries[index].offset) {
                "duplicate key '\(key)' (first defined at \(firstSource.path):\(firstSource.line(of: firstOffset))); this one is addressable as '\(key)#\(occurrence)'"
            })
        }
        if preparingLineNumbers {
            let sources = files.map(\.source)
            DispatchQueue.global().async { for source in sources { source.prepareLineNumbers() } }
        }
        let sourceSize = files.reduce(0) { $0 + $1.source.bytes.count }
        diagnostics += CrossrefResolver.resolve(&entries, keyIndex: keyIndex, sourceSize: sourceSize)
        self.files = files
        self.entries = entries
        self.diagnostics = diagnostics
        self.keyIndex = keyIndex
    }

    /// Parses files already read (their bytes in any supported encoding, as `BibFile.parse`
    /// reads them), `@string`s of earlier ones serving later ones.
    public static func parse(_ texts: [(path: String, bytes: [UInt8])]) -> Library {
        var macros = MacroTable()
        let files = texts.map { BibFile.parse(bytes: $0.bytes, path: $0.path, macros: &macros) }
        return Library(files: consume files)
    }

    /// Puts `entry` (an edited copy of the entry at `position`, with the same cite key) in its
    /// place: what a screen shows of an edit before the file is read again. False, and nothing
    /// changed, when there is no such position or the key is not the same.
    @discardableResult
    public mutating func replaceEntry(at position: Int, with entry: Entry) -> Bool {
        guard entries.indices.contains(position), entries[position].key == entry.key else { return false }
        entries[position] = entry
        return true
    }

    /// The positions in `entries` of the entries with this cite key (case-insensitive).
    public func positions(ofKey key: String) -> [Int] {
        keyIndex.positions(of: key.foldedKey)
    }

    /// All entries with this cite key (case-insensitive), in file order.
    public func entries(withKey key: String) -> [Entry] {
        keyIndex.positions(of: key.foldedKey).map { entries[$0] }
    }

    /// The entry an address names: `key`, or `key#N` for the N-th of duplicate keys.
    public func entry(at address: EntryAddress) -> Entry? {
        entry(addressedBy: address.text)
    }

    /// The entries with this cite key, in file order.
    public func entries(withKey key: CiteKey) -> [Entry] {
        entries(withKey: key.text)
    }

    /// The entry a user's address names: `key`, or `key#N` for the N-th of duplicate keys.
    public func entry(addressedBy address: String) -> Entry? {
        if let exact = entries(withKey: address).first { return exact }
        guard let hash = address.lastIndex(of: "#"), let occurrence = Int(address[address.index(after: hash)...]) else {
            return nil
        }
        let matches = entries(withKey: String(address[..<hash]))
        return occurrence >= 1 && occurrence <= matches.count ? matches[occurrence - 1] : nil
    }

    /// The number of error diagnostics.
    public var errorCount: Int { count(of: .error) }
    /// The number of warning diagnostics.
    public var warningCount: Int { count(of: .warning) }

    /// Counts diagnostics of one severity reading only that property of each: a closure given
    /// each diagnostic gets a copy, which retains and releases its references (17,000 warnings
    /// in a large library).
    private func count(of severity: Diagnostic.Severity) -> Int {
        var count = 0
        for index in diagnostics.indices where diagnostics[index].severity == severity { count += 1 }
        return count
    }
}

extension BibFile {
    /// Parses a file's bytes (any supported encoding), extending the shared macro table.
    public static func parse(bytes: [UInt8], path: String, macros: inout MacroTable) -> BibFile {
        parse(bytes: bytes, path: path, macros: &macros, chunkStarts: nil)
    }

    /// Parses a file's bytes as `parse(bytes:path:macros:)` does, but read in chunks starting
    /// at these byte offsets of its UTF-8 text rather than at offsets of the parser's choosing.
    ///
    /// The result is the same whatever the offsets (tests check exactly that); an offset where
    /// no block starts only makes that chunk be read again in order.
    public static func parse(bytes: [UInt8], path: String, macros: inout MacroTable, chunkStarts: [Int]?) -> BibFile {
        let decoded = SourceDecoding.decode(bytes)
        let source = SourceFile(path: path, bytes: decoded.utf8, encoding: decoded.encoding)
        let starts = chunkStarts.map { Array(Set($0.filter { $0 > 0 && $0 < decoded.utf8.count })).sorted() }
        var file = BibParser.parse(source, macros: &macros, chunkStarts: starts ?? BibParser.chunkStarts(in: source))
        if let note = decoded.note {
            let diagnostic = Diagnostic(.warning, path: path, location: note.location, message: note.message)
            file.diagnostics.insert(diagnostic, at: 0)
        }
        return file
    }

    /// True when the file holds nothing BibTeX at all.
    var isEmptyOfBibTeX: Bool {
        entries.isEmpty && comments.isEmpty && preambles.isEmpty && strings.isEmpty && documentInfo.isEmpty
            && !diagnostics.contains { $0.severity == .error }
    }
}

extension String {
    /// A cite key folded for case-insensitive lookup (ASCII fast path).
    var foldedKey: String {
        var key = self
        // Over the bytes rather than the UTF-8 view: every key is folded once on load.
        let folding = key.withUTF8 { bytes -> KeyFolding in
            var hasUpper = false
            for byte in bytes {
                if byte >= 0x80 { return .unicode }
                if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
            }
            guard hasUpper else { return .unchanged }
            return .ascii(String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() {
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return bytes.count
            })
        }
        switch folding {
        case .unchanged: return self
        case .unicode: return lowercased()
        case .ascii(let folded): return folded
        }
    }
}

/// How a key folds: not at all (ASCII, no capital), by Unicode's rules, or by ASCII's.
private enum KeyFolding {
    case unchanged
    case unicode
    case ascii(String)
}
