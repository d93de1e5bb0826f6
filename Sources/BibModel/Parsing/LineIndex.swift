import Foundation

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
