import Foundation

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
