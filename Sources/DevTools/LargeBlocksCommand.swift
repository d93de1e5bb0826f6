import ArgumentParser
import Foundation
import Reader

/// `bibread-dev large-blocks`: whether, in a fresh process set up as the reader sets itself up
/// (`FreedMemory.keepLargeBlocksApart`), a block of `FreedMemory.largeBlock` and more, asked for
/// after a bigger one was freed, gets pages of its own (glibc's `IS_MMAPPED` bit in the chunk's
/// size word) or comes from an arena, where its pages stay resident after it is freed. Run by
/// `FreedMemoryTests`: in the test process, other tests' freed chunks can serve the block.
struct LargeBlocksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "large-blocks",
        abstract: "Show where a large block comes from after a bigger one was freed (glibc; a test's probe).")

    @Flag(help: "Leave glibc's threshold as it starts (the check then shows the arena).")
    var glibcDefault = false

    func run() throws {
        if !glibcDefault, !FreedMemory.keepLargeBlocksApart() { throw ValidationError("the C library has no mmap threshold to set") }
        let bigger = Int(FreedMemory.largeBlock) * 3 / 2 + (4 << 20)
        guard let first = malloc(bigger) else { throw ValidationError("no memory") }
        memset(first, 1, bigger)
        free(first)
        let size = Int(FreedMemory.largeBlock) + (1 << 20)
        guard let block = malloc(size) else { throw ValidationError("no memory") }
        defer { free(block) }
        let ownPages = (block - MemoryLayout<UInt>.size).load(as: UInt.self) & 0x2 != 0
        DevConsole.print("\(size >> 20) MB block: \(ownPages ? "pages of its own" : "from an arena")")
    }
}
