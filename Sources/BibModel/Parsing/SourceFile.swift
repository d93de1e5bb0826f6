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
    let lineIndexStorage = LockedValue<LineIndex?>(nil)
    /// The distinct field names used in this file.
    public let fieldNames = FieldNameStore()

    init(path: String, bytes: [UInt8], encoding: TextEncoding) {
        self.path = path
        self.bytes = bytes
        self.encoding = encoding
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.directory = (URL(fileURLWithPath: absolute).standardizedFileURL.path as NSString).deletingLastPathComponent
    }

    /// Reads `count` bytes at `start` as a String.
    func string(start: Int, count: Int) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<(start + count)]), as: UTF8.self)
        }
    }
}

/// Maps byte offsets to line and column, built with one pass when first needed.
struct LineIndex {
    private var lineStarts: [Int] = [0]
    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            let count = buffer.count
            while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                lineStarts.append(position + 1)
                offset = position + 1
            }
        }
    }

    /// The 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The 1-based line and column (in Unicode scalars) of a byte offset.
    func location(of offset: Int) -> SourceLocation {
        let line = line(of: offset)
        let low = line - 1
        let start = lineStarts[low]
        var column = 1
        var index = start
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }
}

extension SourceFile {
    /// The line and column of a byte offset in this file.
    public func location(of offset: Int) -> SourceLocation {
        lineIndex.location(of: offset)
    }

    /// The 1-based line of a byte offset (cheaper than `location(of:)`: no column).
    public func line(of offset: Int) -> Int {
        lineIndex.line(of: offset)
    }

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

/// A value behind a lock, for the few lazily built caches shared between threads.
final class LockedValue<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
