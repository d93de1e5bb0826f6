import Foundation

/// Sorted words, each with the sorted list of references that use it (all lists in one array).
struct WordPostings: Sendable {
    private let words: [String]
    /// Word `i`'s references are `postings[starts[i] ..< starts[i + 1]]`.
    private let starts: [Int32]
    private let postings: [Int32]

    /// No words.
    static let empty = WordPostings(words: [], starts: [0], postings: [])

    /// Collects (word, reference) pairs, references in increasing order.
    struct Builder {
        private var wordIDs: [Int32] = []
        private var entryIDs: [Int32] = []

        mutating func add(_ word: Int32, entry: Int32) {
            wordIDs.append(word)
            entryIDs.append(entry)
        }

        /// Adds the pairs of `other` (of later references), its word ids renumbered by `wordIDs`.
        mutating func append(_ other: Builder, wordIDs renumbered: [Int32]) {
            wordIDs.reserveCapacity(wordIDs.count + other.wordIDs.count)
            for id in other.wordIDs { wordIDs.append(renumbered[Int(id)]) }
            entryIDs += other.entryIDs
        }

        /// The postings of the words used here; `words` names every word id, `rank` is each
        /// word's place in the sorted words of the whole index. `places` has -1 for every word id,
        /// before and after: shared by the builders of one index, so that each costs the words
        /// it holds, not every word of the library (thousands of field names, each with a
        /// builder, would otherwise cost their number times the words').
        func build(words: [String], rank: [Int32], places rankOfID: inout [Int]) -> WordPostings {
            var used: [Int] = []
            for id in wordIDs where rankOfID[Int(id)] == -1 {
                rankOfID[Int(id)] = 0
                used.append(Int(id))
            }
            let order = used.sorted { rank[$0] < rank[$1] }
            defer { for id in order { rankOfID[id] = -1 } }
            for (position, id) in order.enumerated() { rankOfID[id] = position }
            // Count each (word, reference) once: a word's pairs come in reference order, so a
            // repeat is always the pair just before it for that word.
            var last = [Int32](repeating: -1, count: order.count)
            var starts = [Int32](repeating: 0, count: order.count + 1)
            for (id, entry) in zip(wordIDs, entryIDs) {
                let slot = rankOfID[Int(id)]
                if last[slot] != entry {
                    last[slot] = entry
                    starts[slot + 1] += 1
                }
            }
            for index in 1..<starts.count { starts[index] += starts[index - 1] }
            var next = starts
            last = [Int32](repeating: -1, count: order.count)
            var postings = [Int32](repeating: 0, count: Int(starts[order.count]))
            for (id, entry) in zip(wordIDs, entryIDs) {
                let slot = rankOfID[Int(id)]
                guard last[slot] != entry else { continue }
                last[slot] = entry
                postings[Int(next[slot])] = entry
                next[slot] += 1
            }
            return WordPostings(words: order.map { words[$0] }, starts: starts, postings: postings)
        }
    }

    /// Calls `body` with the list of every word that starts with `prefix` (or only the word equal
    /// to it, when `exact`).
    func forEachList(startingWith prefix: String, exact: Bool, _ body: (ArraySlice<Int32>) -> Void) {
        var low = 0
        var high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < prefix { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < words.count, words[index].hasPrefix(prefix) {
            if !exact || words[index] == prefix { body(postings[Int(starts[index])..<Int(starts[index + 1])]) }
            if exact { break }
            index += 1
        }
    }
}
