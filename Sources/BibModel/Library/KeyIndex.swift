import Foundation
import PropertyList

/// Entry positions by folded cite key; only duplicate keys pay for an array.
///
/// A large library's index is built on two threads: the keys are folded half each, then each
/// thread indexes the keys of one part (by the last byte of the folded key), reading every
/// entry in order, so that the positions of a key stay in file order.
struct KeyIndex: Sendable {
    /// A later entry whose key was met before: its position, which occurrence of the key it
    /// is (2 for the second), and the position of the first.
    struct Duplicate: Sendable {
        let index: Int
        let occurrence: Int
        let first: Int
    }

    private struct Part: Sendable {
        var first: [String: Int]
        var duplicates: [String: [Int]] = [:]

        /// Records `index` under `key`; returns how many positions the key now has, and the first.
        mutating func add(_ key: String, at index: Int) -> (count: Int, first: Int) {
            // One lookup for a new key, the common case.
            guard let existing = first.updateValue(index, forKey: key) else { return (1, index) }
            first[key] = existing
            return Self.append(index, to: &duplicates[key, default: [existing]], first: existing)
        }

        private static func append(_ index: Int, to positions: inout [Int], first: Int) -> (count: Int, first: Int) {
            positions.append(index)
            return (positions.count, first)
        }
    }

    /// Libraries with fewer entries are indexed on one thread.
    static let parallelMinimum = 8192

    private let parts: [Part]

    /// Indexes the keys of `entries`; returns the index and the duplicates, in file order.
    static func build(_ entries: [Entry]) -> (index: KeyIndex, duplicates: [Duplicate]) {
        let count = entries.count
        let partCount = count >= parallelMinimum ? 2 : 1
        let folded = [String](unsafeUninitializedCapacity: count) { buffer, initialized in
            let start = UInt(bitPattern: buffer.baseAddress)
            DispatchQueue.concurrentPerform(iterations: partCount) { half in
                guard let base = UnsafeMutablePointer<String>(bitPattern: start) else { return }
                for index in (half * count / partCount)..<((half + 1) * count / partCount) {
                    (base + index).initialize(to: entries[index].key.foldedKey)
                }
            }
            initialized = count
        }
        let built = LockedValue([(part: Part, duplicates: [Duplicate])?](repeating: nil, count: partCount))
        DispatchQueue.concurrentPerform(iterations: partCount) { number in
            var part = Part(first: Dictionary(minimumCapacity: count / partCount + 16))
            var duplicates: [Duplicate] = []
            for index in folded.indices where Self.part(of: folded[index], among: partCount) == number {
                let (occurrence, first) = part.add(folded[index], at: index)
                if occurrence > 1 { duplicates.append(Duplicate(index: index, occurrence: occurrence, first: first)) }
            }
            built.withLock { $0[number] = (part, duplicates) }
        }
        let results = built.withLock { $0 }.compactMap { $0 }
        let duplicates = results.flatMap(\.duplicates).sorted { $0.index < $1.index }
        return (KeyIndex(parts: results.map(\.part)), duplicates)
    }

    private init(parts: [Part]) {
        self.parts = parts
    }

    /// Which of `count` parts holds a folded key.
    private static func part(of key: String, among count: Int) -> Int {
        count == 1 ? 0 : Int(key.utf8.last ?? 0) % count
    }

    private func part(of key: String) -> Part { parts[Self.part(of: key, among: parts.count)] }

    /// The positions of a folded key, in file order.
    func positions(of key: String) -> [Int] {
        let part = part(of: key)
        if let all = part.duplicates[key] { return all }
        return part.first[key].map { [$0] } ?? []
    }

    /// The first position of a folded key.
    func firstPosition(of key: String) -> Int? { part(of: key).first[key] }
}
