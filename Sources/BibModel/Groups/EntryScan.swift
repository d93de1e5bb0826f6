import Foundation

/// One pass over every reference of a large library, split between the cores: a column (one
/// value per reference, in library order) or a value index, each the same as the one-thread
/// loop gives (`GroupScanEquivalenceTests` compares them). The work given must be safe to run on
/// several threads at once (it reads the entry it is given, nothing shared that changes).
enum EntryScan {
    /// Libraries with fewer references are read on one thread.
    static let parallelMinimum = 8192

    /// How many parts `count` references are split into, on at most `threads` threads (nil:
    /// one a core).
    static func partCount(_ count: Int, threads: Int? = nil) -> Int {
        let cores = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        return count >= parallelMinimum ? max(1, min(threads ?? cores, cores)) : 1
    }

    /// `entries.map(transform)`, on at most `threads` threads.
    static func map<T: Sendable>(_ entries: [Entry], threads: Int? = nil, _ transform: @Sendable (Entry) -> T) -> [T] {
        let parts = partCount(entries.count, threads: threads)
        guard parts > 1 else { return entries.map(transform) }
        do {
            let results = LockedValue([[T]](repeating: [], count: parts))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                let values = entries.withUnsafeBufferPointer { buffer in
                    bounds(of: part, among: parts, count: buffer.count).map { transform(buffer[$0]) }
                }
                results.withLock { $0[part] = values }
            }
            return results.withLock { $0 }.flatMap { $0 }
        }
    }

    /// For each value `extract` gives, the positions in `entries` of the references that have
    /// it, in order (a reference that gives a value twice is there once), on at most `threads` threads.
    static func valueIndex(_ entries: [Entry], threads: Int? = nil, extract: @Sendable (Entry) -> [String]) -> [String: [Int]] {
        let parts = partCount(entries.count, threads: threads)
        do {
            let results = LockedValue([[String: [Int]]](repeating: [:], count: parts))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                var index: [String: [Int]] = [:]
                entries.withUnsafeBufferPointer { buffer in
                    for position in bounds(of: part, among: parts, count: buffer.count) {
                        let values = extract(buffer[position])
                        if values.count == 1 {
                            index[values[0], default: []].append(position)
                        } else if values.count <= 16 {
                            // A few values: each once, compared with those before it (no set).
                            for number in values.indices where !values[..<number].contains(values[number]) {
                                index[values[number], default: []].append(position)
                            }
                        } else {
                            for value in Set(values) { index[value, default: []].append(position) }
                        }
                    }
                }
                results.withLock { $0[part] = index }
            }
            var parts = results.withLock { $0 }
            var index = parts.removeFirst()
            for part in parts {
                for (value, positions) in part { index[value, default: []].append(contentsOf: positions) }
            }
            return index
        }
    }

    /// The positions of `entries` that pass `test`, in order.
    static func filter(_ entries: [Entry], _ test: (Entry, Int) -> Bool) -> [Int] {
        entries.withUnsafeBufferPointer { buffer in buffer.indices.filter { test(buffer[$0], $0) } }
    }

    /// The positions of part `part` of `among` parts of `count`.
    private static func bounds(of part: Int, among parts: Int, count: Int) -> Range<Int> {
        (part * count / parts)..<((part + 1) * count / parts)
    }
}
