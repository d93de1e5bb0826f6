import Foundation
@testable import Reader
import Testing

/// The reader fixes glibc's threshold for blocks with pages of their own (issue 31: the scratch of
/// the startup work stayed resident in the arenas once glibc had raised that threshold).
@Suite("freed memory")
struct FreedMemoryTests {
    /// glibc marks a block with pages of its own in its chunk's size word, just before the block
    /// (`IS_MMAPPED`, 0x2).
    static func hasPagesOfItsOwn(_ block: UnsafeMutableRawPointer) -> Bool {
        (block - MemoryLayout<UInt>.size).load(as: UInt.self) & 0x2 != 0
    }

    @Test func aLargeBlockAfterABiggerOneWasFreedStillHasPagesOfItsOwn() throws {
        FreedMemory.keepLargeBlocksApart()
        // A bigger block freed first: left to itself, glibc would raise the threshold to its size,
        // and the next block below it would come from an arena.
        let bigger = 24 << 20
        let first = try #require(malloc(bigger))
        memset(first, 1, bigger)
        free(first)
        let size = Int(FreedMemory.largeBlock) + (1 << 20)
        let block = try #require(malloc(size))
        defer { free(block) }
        #expect(Self.hasPagesOfItsOwn(block), "a \(size >> 20) MB block came from an arena")
        // And a small one still comes from an arena (the check can tell the two apart).
        let small = try #require(malloc(4096))
        defer { free(small) }
        #expect(!Self.hasPagesOfItsOwn(small))
    }
}
