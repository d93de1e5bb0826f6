import BibreadTestSupport
import Foundation
@testable import Reader
import Testing

/// The reader fixes glibc's threshold for blocks with pages of their own (issue 31: the scratch of
/// the startup work stayed resident in the arenas once glibc had raised that threshold). Checked
/// in a fresh process (`bibread-dev large-blocks`): in this one, other tests' freed chunks can
/// serve a large block whatever the threshold.
@Suite("freed memory")
struct FreedMemoryTests {
    @Test func aLargeBlockAfterABiggerOneWasFreedStillHasPagesOfItsOwn() throws {
        let megabytes = Int(FreedMemory.largeBlock) >> 20 + 1
        let fixed = try ProcessRunner.development(["large-blocks"])
        #expect(fixed.status == 0, "\(fixed.standardError)")
        #expect(fixed.standardOutput == "\(megabytes) MB block: pages of its own\n")
        // glibc left as it starts: the same block comes from an arena (the probe can tell).
        let left = try ProcessRunner.development(["large-blocks", "--glibc-default"])
        #expect(left.status == 0, "\(left.standardError)")
        #expect(left.standardOutput == "\(megabytes) MB block: from an arena\n")
    }

    @Test func glibcTakesTheSetting() {
        #expect(FreedMemory.keepLargeBlocksApart())
    }
}
