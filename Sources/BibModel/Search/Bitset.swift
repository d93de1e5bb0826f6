import Foundation

/// A set of reference positions as bits.
struct Bitset {
    private var words: [UInt64]
    let capacity: Int

    init(count: Int, filled: Bool) {
        capacity = count
        words = [UInt64](repeating: filled ? ~0 : 0, count: (count + 63) / 64)
        if filled { trimTail() }
    }

    mutating func insert(_ index: Int) {
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    mutating func formIntersection(_ other: Bitset) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    mutating func formUnion(_ other: Bitset) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    mutating func invert() {
        for index in words.indices { words[index] = ~words[index] }
        trimTail()
    }

    private mutating func trimTail() {
        let extra = words.count * 64 - capacity
        if extra > 0, !words.isEmpty { words[words.count - 1] &= ~0 >> UInt64(extra) }
    }

    /// True when no index is in the set.
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    var members: [Int] {
        var result: [Int] = []
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(wordIndex * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
