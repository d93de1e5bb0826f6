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
    let scalarCountsStorage = LockedValue<ScalarCounts?>(nil)
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
struct LineIndex: Sendable {
    /// Where each line starts; four bytes each, as files are read only below 4 GiB (a large
    /// library has a million lines).
    private var lineStarts: [UInt32] = [0]
    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        precondition(bytes.count < Int(UInt32.max), "line offsets are 32-bit")
        self.bytes = bytes
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            let count = buffer.count
            while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                lineStarts.append(UInt32(position + 1))
                offset = position + 1
            }
        }
    }

    /// The 1-based line of a byte offset.
    func line(of offset: Int) -> Int {
        lastLineStart(atOrBefore: offset, in: 0..<lineStarts.count) + 1
    }

    /// The 1-based line of a byte offset, searched first just after `hint` (the index of the
    /// line found last time, updated): offsets asked in file order cost a few steps each, not
    /// a search of the whole file.
    func line(of offset: Int, hint: inout Int) -> Int {
        let count = lineStarts.count
        guard hint >= 0, hint < count, Int(lineStarts[hint]) <= offset else {
            hint = lastLineStart(atOrBefore: offset, in: 0..<count)
            return hint + 1
        }
        // Steps of 1, 2, 4, ... past the hint until a line starts after `offset`.
        var low = hint
        var step = 1
        while low + step < count, Int(lineStarts[low + step]) <= offset {
            low += step
            step *= 2
        }
        hint = lastLineStart(atOrBefore: offset, in: low..<min(count, low + step))
        return hint + 1
    }

    /// The index of the last line in `range` that starts at or before `offset`; the range's
    /// first line must.
    private func lastLineStart(atOrBefore offset: Int, in range: Range<Int>) -> Int {
        var low = range.lowerBound
        var high = range.upperBound - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(lineStarts[middle]) <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The byte offset where a 1-based line starts.
    func start(ofLine line: Int) -> Int { Int(lineStarts[line - 1]) }
}

/// The number of Unicode scalars before every `stride`-th byte, so that the column of a place
/// far into a long line (a whole library on one line, with a diagnostic for each of its
/// entries) is found without counting from the start of the line each time.
struct ScalarCounts {
    static let stride = 4096
    private let counts: [Int]

    init(bytes: [UInt8]) {
        var counts = [0]
        counts.reserveCapacity(bytes.count / ScalarCounts.stride + 1)
        var total = 0
        var blockStart = 0
        while blockStart + ScalarCounts.stride <= bytes.count {
            total += ScalarCounts.scalars(in: bytes, blockStart, blockStart + ScalarCounts.stride)
            counts.append(total)
            blockStart += ScalarCounts.stride
        }
        self.counts = counts
    }

    /// The number of scalars in `bytes[0 ..< offset]`.
    func scalars(before offset: Int, in bytes: [UInt8]) -> Int {
        let block = offset / ScalarCounts.stride
        return counts[block] + ScalarCounts.scalars(in: bytes, block * ScalarCounts.stride, offset)
    }

    /// The number of scalars that start in `bytes[start ..< end]`.
    static func scalars(in bytes: [UInt8], _ start: Int, _ end: Int) -> Int {
        var count = 0
        var index = start
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
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

/// The line numbers of one source file (see `SourceFile.lineNumbers`).
public struct LineNumbers: Sendable {
    let index: LineIndex

    /// The line where `entry` starts; `entry` must come from this file.
    public func line(of entry: Entry) -> Int { index.line(of: entry.offset) }

    /// The line where `entry` starts, found fast when entries are asked in file order: `hint`
    /// (start at 0) carries where the last one was.
    public func line(of entry: Entry, hint: inout Int) -> Int { index.line(of: entry.offset, hint: &hint) }
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
