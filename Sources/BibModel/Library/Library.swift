import Foundation
import PropertyList

/// Why a file could not be read as a library at all.
public struct LoadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of unreadable file, each with its own message.
    public enum Reason: Sendable, Equatable {
        case missing
        case directory
        case unreadable(String)
        case empty
        case binary
        case noEntries
        case tooLarge
        /// A FIFO, a device or a socket (`kind` says which): never opened so that it could block.
        case notRegularFile(kind: String)

        /// What is wrong with the file, as a sentence about "it" (a downloaded .bib that is
        /// refused says this).
        public var explanation: String {
            switch self {
            case .missing: "it is not there"
            case .directory: "it is a folder, not a file"
            case .unreadable(let why): "it cannot be read: \(why)"
            case .empty: "it is empty: no references"
            case .binary: "it is a binary file, not BibTeX text"
            case .noEntries: "it has no BibTeX entries"
            case .tooLarge: "it is too large (4 GiB or more) to be a BibTeX library"
            case .notRegularFile(let kind): "it is not a regular file (\(kind))"
            }
        }
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missing: return "\(path): no such file"
        case .directory: return "\(path): is a directory; name the .bib files in it (for example \(path.hasSuffix("/") ? path : path + "/")*.bib)"
        case .unreadable(let why): return "\(path): cannot read: \(why)"
        case .empty: return "\(path): empty file, no references"
        case .binary: return "\(path): binary file, not BibTeX text"
        case .noEntries: return "\(path): no BibTeX entries found"
        case .tooLarge: return "\(path): too large (4 GiB or more) to be a BibTeX library"
        case .notRegularFile(let kind): return "\(path): not a regular file (\(kind))"
        }
    }
}

/// The union of one or more .bib files: every reference, addressable by cite key.
public struct Library: Sendable {
    /// The files read, in the order given; their entries are in `entries`, not here.
    public let files: [BibFile]
    /// Every reference of every file, in order, with `crossref` fields inherited.
    public let entries: [Entry]
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

    /// Parses already-read UTF-8 text; used by tests and by the loader.
    public static func parse(_ texts: [(path: String, bytes: [UInt8])]) -> Library {
        var macros = MacroTable()
        let files = texts.map { BibFile.parse(bytes: $0.bytes, path: $0.path, macros: &macros) }
        return Library(files: consume files)
    }

    /// The positions in `entries` of the entries with this cite key (case-insensitive).
    public func positions(ofKey key: String) -> [Int] {
        keyIndex.positions(of: key.foldedKey)
    }

    /// All entries with this cite key (case-insensitive), in file order.
    public func entries(withKey key: String) -> [Entry] {
        keyIndex.positions(of: key.foldedKey).map { entries[$0] }
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

/// Turns a file's bytes into UTF-8: BOM, declared encodings, and the Windows-1252 fallback.
enum SourceDecoding {
    /// From this size on, a file's UTF-8 is checked in two halves at once.
    static let parallelValidationSize = 8 << 20

    /// The offset of the first byte of `bytes` that breaks UTF-8, or nil, as
    /// `UTF8Validation.firstInvalidOffset` gives it. A large file is first checked in two halves
    /// on two threads, split where a character starts (a byte that is not a continuation byte),
    /// so that no character straddles the halves of a valid file; only a file found invalid is
    /// read again in one pass, for the place of its first bad byte.
    static func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if bytes.count >= parallelValidationSize, ProcessInfo.processInfo.activeProcessorCount > 1,
           halvesAreValidUTF8(bytes) {
            return nil
        }
        return UTF8Validation.firstInvalidOffset(in: bytes)
    }

    /// True when both halves of `bytes` (split where a character starts) are valid UTF-8,
    /// checked at once on two threads.
    static func halvesAreValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var split = bytes.count / 2
        // A valid character has at most three continuation bytes.
        while split > bytes.count / 2 - 4, bytes[split] & 0xC0 == 0x80 { split -= 1 }
        guard bytes[split] & 0xC0 != 0x80 else { return false }
        guard let base = bytes.baseAddress else { return true }
        // The address as a number, as `LibraryLoader.read` passes it: the bytes outlive the threads.
        let start = UInt(bitPattern: base)
        let bounds = [0, split, bytes.count]
        let valid = LockedValue([Bool](repeating: false, count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            guard let address = UnsafePointer<UInt8>(bitPattern: start + UInt(bounds[half])) else { return }
            let part = UnsafeBufferPointer(start: address, count: bounds[half + 1] - bounds[half])
            let isValid = UTF8Validation.firstInvalidOffset(in: part) == nil
            valid.withLock { $0[half] = isValid }
        }
        return valid.withLock { $0[0] && $0[1] }
    }

    struct Note {
        let location: SourceLocation
        let message: String
    }

    static func decode(_ bytes: [UInt8]) -> (utf8: [UInt8], encoding: TextEncoding, note: Note?) {
        bytes.withUnsafeBufferPointer { buffer in
            var body = buffer
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                body = UnsafeBufferPointer(rebasing: buffer[3...])
            }
            let declared = TextEncoding.declared(in: body)
            if let declared, declared != .utf8 {
                return (declared.transcodeToUTF8(body), declared, nil)
            }
            guard let bad = firstInvalidUTF8Offset(in: body) else {
                return (body.count == buffer.count ? bytes : Array(body), .utf8, nil)
            }
            let original = [UInt8](body)
            let lines = LineIndex(bytes: original)
            let line = lines.line(of: bad)
            let location = SourceLocation(line: line, column: 1 + ScalarCounts.scalars(in: original, lines.start(ofLine: line), bad))
            let why = declared == .utf8 ? "declares UTF-8 but is not valid UTF-8" : "is not valid UTF-8"
            let chosen = EncodingGuess.bestFit(for: body)
            let names = EncodingGuess.candidates.map(\.rawValue)
            let note = Note(location: location,
                            message: "file \(why) (first bad byte 0x\(String(body[bad], radix: 16, uppercase: true)) here)"
                                + "\(declared == nil ? " and declares no encoding" : ""); read as \(chosen.rawValue), which its bytes fit best"
                                + " of \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "")")
            return (chosen.transcodeToUTF8(body), chosen, note)
        }
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

/// Entry positions by folded cite key; only duplicate keys pay for an array.
///
/// A large library's index is built on two threads: the keys are folded half each, then each
/// thread indexes the keys of one part (by the last byte of the folded key), reading every
/// entry in order, so that the positions of a key stay in file order.
struct KeyIndex: Sendable {
    /// A later entry whose key was met before: its position, which occurrence of the key it
    /// is (2 for the second), and the position of the first.
    struct Duplicate: Sendable {
        let index: Int
        let occurrence: Int
        let first: Int
    }

    private struct Part: Sendable {
        var first: [String: Int]
        var duplicates: [String: [Int]] = [:]

        /// Records `index` under `key`; returns how many positions the key now has, and the first.
        mutating func add(_ key: String, at index: Int) -> (count: Int, first: Int) {
            // One lookup for a new key, the common case.
            guard let existing = first.updateValue(index, forKey: key) else { return (1, index) }
            first[key] = existing
            return Self.append(index, to: &duplicates[key, default: [existing]], first: existing)
        }

        private static func append(_ index: Int, to positions: inout [Int], first: Int) -> (count: Int, first: Int) {
            positions.append(index)
            return (positions.count, first)
        }
    }

    /// Libraries with fewer entries are indexed on one thread.
    static let parallelMinimum = 8192

    private let parts: [Part]

    /// Indexes the keys of `entries`; returns the index and the duplicates, in file order.
    static func build(_ entries: [Entry]) -> (index: KeyIndex, duplicates: [Duplicate]) {
        let count = entries.count
        let partCount = count >= parallelMinimum ? 2 : 1
        let folded = [String](unsafeUninitializedCapacity: count) { buffer, initialized in
            let start = UInt(bitPattern: buffer.baseAddress)
            DispatchQueue.concurrentPerform(iterations: partCount) { half in
                guard let base = UnsafeMutablePointer<String>(bitPattern: start) else { return }
                for index in (half * count / partCount)..<((half + 1) * count / partCount) {
                    (base + index).initialize(to: entries[index].key.foldedKey)
                }
            }
            initialized = count
        }
        let built = LockedValue([(part: Part, duplicates: [Duplicate])?](repeating: nil, count: partCount))
        DispatchQueue.concurrentPerform(iterations: partCount) { number in
            var part = Part(first: Dictionary(minimumCapacity: count / partCount + 16))
            var duplicates: [Duplicate] = []
            for index in folded.indices where Self.part(of: folded[index], among: partCount) == number {
                let (occurrence, first) = part.add(folded[index], at: index)
                if occurrence > 1 { duplicates.append(Duplicate(index: index, occurrence: occurrence, first: first)) }
            }
            built.withLock { $0[number] = (part, duplicates) }
        }
        let results = built.withLock { $0 }.compactMap { $0 }
        let duplicates = results.flatMap(\.duplicates).sorted { $0.index < $1.index }
        return (KeyIndex(parts: results.map(\.part)), duplicates)
    }

    private init(parts: [Part]) {
        self.parts = parts
    }

    /// Which of `count` parts holds a folded key.
    private static func part(of key: String, among count: Int) -> Int {
        count == 1 ? 0 : Int(key.utf8.last ?? 0) % count
    }

    private func part(of key: String) -> Part { parts[Self.part(of: key, among: parts.count)] }

    /// The positions of a folded key, in file order.
    func positions(of key: String) -> [Int] {
        let part = part(of: key)
        if let all = part.duplicates[key] { return all }
        return part.first[key].map { [$0] } ?? []
    }

    /// The first position of a folded key.
    func firstPosition(of key: String) -> Int? { part(of: key).first[key] }
}
