import BibModel
import Dispatch
import Foundation

/// Renders references in chunks on every core and hands the bytes out in order, a batch at a
/// time, so memory stays bounded however large the library.
enum ParallelRendering {
    /// Calls `render` for chunks of `entries` (at once on several threads) and `output` with each
    /// chunk's bytes, in order; empty chunks are skipped. Each buffer `render` returns is handed
    /// to `output` as it is (no copy) and freed afterwards.
    static func render(_ entries: [Entry], chunkSize: Int = 256, batch: Int = 32,
                       render: @escaping @Sendable (ArraySlice<Entry>) -> ByteBuffer,
                       output: (UnsafeBufferPointer<UInt8>) -> Void) {
        let chunkCount = (entries.count + chunkSize - 1) / chunkSize
        for batchStart in stride(from: 0, to: chunkCount, by: batch) {
            let batchEnd = min(chunkCount, batchStart + batch)
            let results = ChunkResults(count: batchEnd - batchStart)
            DispatchQueue.concurrentPerform(iterations: batchEnd - batchStart) { offset in
                let chunk = batchStart + offset
                let range = (chunk * chunkSize)..<min(entries.count, (chunk + 1) * chunkSize)
                results.set(offset, render(entries[range]))
            }
            for buffer in results.all {
                guard let buffer else { continue }
                if !buffer.isEmpty { output(UnsafeBufferPointer(start: buffer.base, count: buffer.count)) }
                buffer.deallocate()
            }
        }
    }
}

/// Results of parallel chunks, one slot each.
private final class ChunkResults: @unchecked Sendable {
    private var slots: [ByteBuffer?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ bytes: ByteBuffer) {
        lock.lock()
        slots[index] = bytes
        lock.unlock()
    }

    var all: [ByteBuffer?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
