import BibModel
import Foundation
import Testing
@testable import BibreadCLI

/// Chunks rendered on several threads come out whole, once each, in order, and no more than the
/// window ahead of the one being handed out.
@Suite("parallel rendering")
struct ParallelRenderingTests {
    @Test(arguments: [(1, 1, 1), (7, 1, 4), (3, 2, 2), (256, 32, 2), (5, 3, 8), (1000, 4, 3)])
    func chunksComeOutInOrderOnceEach(chunkSize: Int, window: Int, workers: Int) {
        let items = Array(0..<2_345)
        var written: [Int] = []
        var calls = 0
        ParallelRendering.render(items, chunkSize: chunkSize, window: window, workers: workers, render: { chunk in
            var buffer = ByteBuffer(capacity: 16)
            for item in chunk { buffer.append("\(item)\n") }
            return buffer
        }, output: { bytes in
            calls += 1
            written += String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
        })
        let firstOutOfPlace = items.indices.first { $0 >= written.count || written[$0] != items[$0] }
        #expect(written.count == items.count && firstOutOfPlace == nil,
                "\(written.count) items written; first out of place at \(firstOutOfPlace.map(String.init) ?? "none")")
        #expect(calls == (items.count + chunkSize - 1) / chunkSize)
    }

    @Test func emptyChunksAndNoItemsWriteNothing() {
        var calls = 0
        ParallelRendering.render([Int](), render: { _ in ByteBuffer(capacity: 1) }, output: { _ in calls += 1 })
        ParallelRendering.render(Array(0..<100), chunkSize: 10, workers: 3, render: { chunk in
            var buffer = ByteBuffer(capacity: 4)
            if chunk.startIndex == 50 { buffer.append("x") }
            return buffer
        }, output: { bytes in
            calls += 1
            #expect(Array(bytes) == Array("x".utf8))
        })
        #expect(calls == 1)
    }

    /// A chunk starts only when it is less than `window` chunks ahead of the next one to hand
    /// out: memory stays bounded even when one thread is slow.
    @Test(arguments: [1, 2, 5])
    func noChunkStartsMoreThanTheWindowAhead(window: Int) {
        let handedOut = Counter()
        let violations = Counter()
        ParallelRendering.render(Array(0..<400), chunkSize: 4, window: window, workers: 4, render: { chunk in
            let number = chunk.startIndex / 4
            if number >= handedOut.value + window { violations.increment() }
            // Every third chunk is slow, as on a core that runs behind.
            if number % 3 == 0 { usleep(200) }
            var buffer = ByteBuffer(capacity: 4)
            buffer.append("\(number)")
            return buffer
        }, output: { _ in handedOut.increment() })
        #expect(handedOut.value == 100)
        #expect(violations.value == 0)
    }
}

/// A count shared between threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}
