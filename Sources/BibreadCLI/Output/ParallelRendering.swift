import BibModel
import Dispatch
import Foundation

/// Renders references in chunks on every core and hands the bytes out in order, a batch at a
/// time, so memory stays bounded however large the library.
enum ParallelRendering {
    /// Calls `render` for chunks of `entries` (at once on several threads) and `output` with each
    /// chunk's bytes, in order; empty chunks are skipped.
    static func render(_ entries: [Entry], chunkSize: Int = 256, batch: Int = 32,
                       render: @escaping @Sendable (ArraySlice<Entry>) -> [UInt8], output: ([UInt8]) -> Void) {
        let chunkCount = (entries.count + chunkSize - 1) / chunkSize
        for batchStart in stride(from: 0, to: chunkCount, by: batch) {
            let batchEnd = min(chunkCount, batchStart + batch)
            let results = ChunkResults(count: batchEnd - batchStart)
            DispatchQueue.concurrentPerform(iterations: batchEnd - batchStart) { offset in
                let chunk = batchStart + offset
                let range = (chunk * chunkSize)..<min(entries.count, (chunk + 1) * chunkSize)
                results.set(offset, render(entries[range]))
            }
            for bytes in results.all where !bytes.isEmpty { output(bytes) }
        }
    }
}

/// Results of parallel chunks, one slot each.
private final class ChunkResults: @unchecked Sendable {
    private var slots: [[UInt8]]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ bytes: [UInt8]) {
        lock.lock()
        slots[index] = bytes
        lock.unlock()
    }

    var all: [[UInt8]] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
