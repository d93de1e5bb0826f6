import Foundation

/// The UTF-8 text of one .bib file, kept so that field values can be read from it lazily.
public final class SourceFile: Sendable {
    /// The path as the user named it; used in diagnostics.
    public let path: String
    /// The folder linked files are resolved against (absolute).
    public let directory: String
    /// The file's text as UTF-8 (after transcoding, without a BOM).
    public let bytes: [UInt8]
    /// The encoding the file was read in.
    public let encoding: TextEncoding
    let lineIndexStorage: LockedValue<LineIndex?>
    let scalarCountsStorage: LockedValue<ScalarCounts?>
    /// The distinct field names used in this file.
    public let fieldNames: FieldNameStore

    init(path: String, bytes: [UInt8], encoding: TextEncoding) {
        self.path = path
        self.bytes = bytes
        self.encoding = encoding
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.directory = (URL(fileURLWithPath: absolute).standardizedFileURL.path as NSString).deletingLastPathComponent
        fieldNames = FieldNameStore()
        lineIndexStorage = LockedValue(nil)
        scalarCountsStorage = LockedValue(nil)
    }

    /// The same file (its bytes, path, line numbers shared) with a copy of its field names that
    /// `names` extends: an edited entry shown before the file is read again may name a field
    /// no entry of the file had, and the file's own store is only read once it is built.
    init(sharing other: SourceFile, names: FieldNameStore) {
        path = other.path
        directory = other.directory
        bytes = other.bytes
        encoding = other.encoding
        lineIndexStorage = other.lineIndexStorage
        scalarCountsStorage = other.scalarCountsStorage
        fieldNames = names
    }

    /// Reads `count` bytes at `start` as a String.
    func string(start: Int, count: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]), as: UTF8.self)
        }
    }
}

extension SourceFile {
    /// The line and column (1-based; the column in Unicode scalars) of a byte offset.
    public func location(of offset: Int) -> SourceLocation {
        let index = lineIndex
        let line = index.line(of: offset)
        let start = index.start(ofLine: line)
        let end = min(offset, bytes.count)
        guard end - start > 2 * ScalarCounts.stride else {
            return SourceLocation(line: line, column: 1 + ScalarCounts.scalars(in: bytes, start, end))
        }
        let counts = scalarCountsStorage.withLock { storage in
            if let built = storage { return built }
            let built = ScalarCounts(bytes: bytes)
            storage = built
            return built
        }
        return SourceLocation(line: line, column: 1 + counts.scalars(before: end, in: bytes) - counts.scalars(before: start, in: bytes))
    }

    /// The 1-based line of a byte offset (cheaper than `location(of:)`: no column).
    public func line(of offset: Int) -> Int {
        lineIndex.line(of: offset)
    }

    /// Works out the file's line numbers now, if that was not done yet, so that a later
    /// `line(of:)`, `location(of:)` or `lineNumbers` does not.
    public func prepareLineNumbers() {
        _ = lineIndex
    }

    /// The file's line numbers, to look many up in a row without taking a lock each time.
    public var lineNumbers: LineNumbers { LineNumbers(index: lineIndex) }

    /// The line index, built with one pass over the file the first time it is needed.
    private var lineIndex: LineIndex {
        lineIndexStorage.withLock { storage in
            if let built = storage { return built }
            let built = LineIndex(bytes: bytes)
            storage = built
            return built
        }
    }
}
