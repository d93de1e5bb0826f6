import Foundation

/// Sorted words, each with the sorted list of references that use it (all lists in one array).
///
/// The words are the index's: every list of one index shares its one sorted array of words, and
/// names its own by their places there (4 bytes a word, not a String of 16 and more per list).
struct WordPostings: Sendable {
    /// Every word of the index, sorted.
    private let words: [String]
    /// The places in `words` of this list's words, increasing; nil: every word of `words`.
    private let places: [Int32]?
    /// Word `i`'s references are `postings[starts[i] ..< starts[i + 1]]`.
    private let starts: [Int32]
    private let postings: [Int32]

    /// No words.
    static let empty = WordPostings(words: [], places: nil, starts: [0], postings: [])

    /// The number of words listed.
    private var count: Int { places?.count ?? words.count }

    /// The `index`th word listed.
    private func word(_ index: Int) -> String {
        guard let places else { return words[index] }
        return words[Int(places[index])]
    }

    /// The sorted words of an index: by word id (a `ByteStringTable`'s numbers), the words sorted,
    /// each id's place among them, and the id at each place.
    struct Vocabulary {
        let sorted: [String]
        let rank: [Int32]
        let idAtRank: [Int32]

        init(words: [String]) {
            let order = words.indices.sorted { words[$0] < words[$1] }
            sorted = order.map { words[$0] }
            var rank = [Int32](repeating: 0, count: words.count)
            for (position, id) in order.enumerated() { rank[id] = Int32(position) }
            self.rank = rank
            idAtRank = order.map { Int32($0) }
        }
    }

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

        /// The postings of the words used here, over `vocabulary` (which names every word id).
        /// `places` has -1 for every word id, before and after: shared by the builders of one
        /// index, so that each costs the words it holds, not every word of the library (thousands
        /// of field names, each with a builder, would otherwise cost their number times the words').
        func build(vocabulary: Vocabulary, places rankOfID: inout [Int]) -> WordPostings {
            // The places among the sorted words of the words used here, in order.
            var used: [Int32] = []
            for id in wordIDs where rankOfID[Int(id)] == -1 {
                rankOfID[Int(id)] = 0
                used.append(vocabulary.rank[Int(id)])
            }
            used.sort()
            defer { for place in used { rankOfID[Int(vocabulary.idAtRank[Int(place)])] = -1 } }
            for (position, place) in used.enumerated() { rankOfID[Int(vocabulary.idAtRank[Int(place)])] = position }
            // Count each (word, reference) once: a word's pairs come in reference order, so a
            // repeat is always the pair just before it for that word.
            var last = [Int32](repeating: -1, count: used.count)
            var starts = [Int32](repeating: 0, count: used.count + 1)
            for (id, entry) in zip(wordIDs, entryIDs) {
                let slot = rankOfID[Int(id)]
                if last[slot] != entry {
                    last[slot] = entry
                    starts[slot + 1] += 1
                }
            }
            for index in 1..<starts.count { starts[index] += starts[index - 1] }
            var next = starts
            last = [Int32](repeating: -1, count: used.count)
            var postings = [Int32](repeating: 0, count: Int(starts[used.count]))
            for (id, entry) in zip(wordIDs, entryIDs) {
                let slot = rankOfID[Int(id)]
                guard last[slot] != entry else { continue }
                last[slot] = entry
                postings[Int(next[slot])] = entry
                next[slot] += 1
            }
            let places: [Int32]? = used.count == vocabulary.sorted.count ? nil : used
            return WordPostings(words: vocabulary.sorted, places: places, starts: starts, postings: postings)
        }
    }

    /// Calls `body` with the list of every word that starts with `prefix` (or only the word equal
    /// to it, when `exact`).
    func forEachList(startingWith prefix: String, exact: Bool, _ body: (ArraySlice<Int32>) -> Void) {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if word(middle) < prefix { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < count {
            let word = word(index)
            guard word.hasPrefix(prefix) else { break }
            if !exact || word == prefix { body(postings[Int(starts[index])..<Int(starts[index + 1])]) }
            if exact { break }
            index += 1
        }
    }

    /// Calls `body` with every word listed, in order, and its references (for tests).
    func forEachWord(_ body: (String, ArraySlice<Int32>) -> Void) {
        for index in 0..<count { body(word(index), postings[Int(starts[index])..<Int(starts[index + 1])]) }
    }
}
