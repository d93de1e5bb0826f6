import BibModel
import Dispatch
import Foundation

/// Renders references in chunks on every core and hands the bytes out in order, so that memory
/// stays bounded however large the library.
///
/// There is no pause between batches: each core takes the next chunk as soon as it is done with
/// one, as long as no more than `window` chunks wait to be handed out; whichever core finishes
/// the chunk that is next in order hands it out, and those after it that are ready. A core that
/// runs slower (a virtual machine's often does) holds the others back only when it holds the
/// chunk next in order and the window is full.
enum ParallelRendering {
    /// Calls `render` for chunks of `entries` (at once on `workers` threads) and `output` with
    /// each chunk's bytes, in order and never two at once; empty chunks are skipped. Each buffer
    /// `render` returns is handed to `output` as it is (no copy) and freed afterwards.
    static func render<Item: Sendable>(_ entries: [Item], chunkSize: Int = 256, window: Int = 32,
                                       workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                                       render: @escaping @Sendable (ArraySlice<Item>) -> ByteBuffer,
                                       output: (UnsafeBufferPointer<UInt8>) -> Void) {
        precondition(chunkSize > 0 && window > 0, "chunks and the window hold at least one")
        let chunkCount = (entries.count + chunkSize - 1) / chunkSize
        guard chunkCount > 0 else { return }
        let pipeline = RenderPipeline(chunkCount: chunkCount, window: window)
        // `output` runs on one thread at a time (see `RenderPipeline.finish`), never at once.
        withoutActuallyEscaping(output) { output in
            let handOut = UncheckedSendable(output)
            DispatchQueue.concurrentPerform(iterations: max(1, min(workers, chunkCount))) { _ in
                while let chunk = pipeline.nextChunk() {
                    let range = (chunk * chunkSize)..<min(entries.count, (chunk + 1) * chunkSize)
                    pipeline.finish(chunk, with: render(entries[range]), handOut: handOut.value)
                }
            }
        }
    }
}

/// The shared state of one `ParallelRendering.render`: which chunk comes next, which are done,
/// and which is next to hand out.
private final class RenderPipeline: @unchecked Sendable {
    private let condition = NSCondition()
    private let chunkCount: Int
    private let window: Int
    /// The next chunk to render.
    private var nextToRender = 0
    /// The next chunk to hand out; those before it are out.
    private var nextToHandOut = 0
    /// Rendered chunks not handed out yet, by number.
    private var ready: [Int: ByteBuffer] = [:]
    /// True while one thread hands chunks out.
    private var handingOut = false

    init(chunkCount: Int, window: Int) {
        self.chunkCount = chunkCount
        self.window = window
    }

    /// The next chunk to render, once it is within `window` of the next one to hand out; nil
    /// when every chunk is taken.
    func nextChunk() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while nextToRender < chunkCount && nextToRender >= nextToHandOut + window {
            condition.wait()
        }
        guard nextToRender < chunkCount else { return nil }
        defer { nextToRender += 1 }
        return nextToRender
    }

    /// Records a rendered chunk; when it is next in order and no other thread hands chunks
    /// out, hands it out with those after it that are ready (outside the lock), then frees them.
    func finish(_ chunk: Int, with bytes: ByteBuffer, handOut: (UnsafeBufferPointer<UInt8>) -> Void) {
        condition.lock()
        ready[chunk] = bytes
        guard !handingOut, ready[nextToHandOut] != nil else {
            condition.unlock()
            return
        }
        handingOut = true
        while let buffer = ready.removeValue(forKey: nextToHandOut) {
            condition.unlock()
            if !buffer.isEmpty { handOut(UnsafeBufferPointer(start: buffer.base, count: buffer.count)) }
            buffer.deallocate()
            condition.lock()
            nextToHandOut += 1
            condition.broadcast()
        }
        handingOut = false
        condition.unlock()
    }
}

/// A value used from several threads where the caller guarantees it is safe: here the output
/// closure, which `RenderPipeline` calls from one thread at a time, in order.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
