import Foundation

/// The references of a library, searchable as you type.
///
/// Every field's decoded text is folded (case, diacritics) and split into words; each word lists
/// the references that use it, for all fields together and per field name. A query word matches
/// the references with a word that starts with it, found by binary search in the sorted words,
/// so a keystroke costs a few posting-list unions, never a pass over the library's text.
public struct SearchIndex: Sendable {
    /// The searched references, in library order; results are positions in this array.
    public let entries: [Entry]
    private let any: WordPostings
    private let byField: [String: WordPostings]
    private let years: [Int?]

    /// Builds the index of every field of every entry (the cite key counts as field `key`, the
    /// entry type as `type`).
    public init(entries: [Entry]) {
        self.entries = entries
        var table = ByteStringTable()
        var anyBuilder = WordPostings.Builder()
        var fieldBuilders: [String: WordPostings.Builder] = [:]
        var years: [Int?] = []
        years.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let id = Int32(index)
            for (name, text) in SearchIndex.searchableTexts(of: entry) {
                var folded = Folding.fold(text)
                let indexName = SearchIndex.indexName(name)
                var fieldBuilder = fieldBuilders.removeValue(forKey: indexName) ?? WordPostings.Builder()
                folded.withUTF8 { bytes in
                    FoldedWords.forEachWord(in: bytes) { word in
                        let wordID = Int32(table.id(of: word))
                        anyBuilder.add(wordID, entry: id)
                        fieldBuilder.add(wordID, entry: id)
                    }
                }
                fieldBuilders[indexName] = fieldBuilder
            }
            years.append(entry.year.flatMap { Int($0.prefix(4)) })
        }
        let words = table.strings
        var rank = [Int](repeating: -1, count: words.count)
        any = anyBuilder.build(words: words, rank: &rank)
        var byField: [String: WordPostings] = [:]
        for (name, builder) in fieldBuilders { byField[name] = builder.build(words: words, rank: &rank) }
        self.byField = byField
        self.years = years
    }

    /// The positions (in `entries`) of the references that match `query`, in library order.
    ///
    /// `text:` terms are answered by `fullText` (the PDFs' index); without one they match nothing.
    public func search(_ query: Query, fullText: (any FullTextMatching)? = nil) -> [Int] {
        evaluate(query, fullText: fullText, memo: PhraseMemo()).members
    }

    /// The number of references that match `query`.
    public func count(_ query: Query, fullText: (any FullTextMatching)? = nil) -> Int {
        evaluate(query, fullText: fullText, memo: PhraseMemo()).count
    }

    // MARK: - Evaluation

    /// The folded words of the references phrases have looked at, kept for the next phrase of
    /// the same query (up to a limit), so that a query of thousands of phrases decodes each
    /// reference once.
    private final class PhraseMemo {
        var words: [Int: [(field: String, words: [String])]] = [:]
        var wordsKept = 0
        var phrasesSeen = 0
        /// At about 32 bytes a word, 64 MB.
        static let maximumWordsKept = 2_000_000
    }

    private func evaluate(_ query: Query, fullText: (any FullTextMatching)?, memo: PhraseMemo) -> Bitset {
        switch query {
        case .all:
            return Bitset(count: entries.count, filled: true)
        case .words(FullTextTerm.field?, let words):
            var result = Bitset(count: entries.count, filled: true)
            for word in words {
                result.formIntersection(fullTextMatches(FullTextTerm(words: [word], isPhrase: false), fullText))
            }
            return result
        case .phrase(FullTextTerm.field?, let words):
            return fullTextMatches(FullTextTerm(words: words, isPhrase: true), fullText)
        case .words(let field, let words):
            var result = Bitset(count: entries.count, filled: true)
            for word in words {
                result.formIntersection(matches(prefix: word, field: field))
            }
            return result
        case .phrase(let field, let words):
            var candidates = Bitset(count: entries.count, filled: true)
            for word in words {
                candidates.formIntersection(matches(prefix: word, field: field, exact: word != words.last))
            }
            var result = Bitset(count: entries.count, filled: false)
            let phrase = PhraseMatcher(words)
            let wanted = field.map(SearchIndex.indexName)
            memo.phrasesSeen += 1
            for index in candidates.members {
                let texts = phraseTexts(of: index, field: wanted, memo: memo)
                if texts.contains(where: { (wanted == nil || $0.field == wanted) && phrase.occurs(in: $0.words) }) {
                    result.insert(index)
                }
            }
            return result
        case .range(let field, let lower, let upper):
            var result = Bitset(count: entries.count, filled: false)
            for index in entries.indices {
                let value = field == "year" ? years[index] : entries[index].value(named: field).flatMap { Int($0) }
                guard let value else { continue }
                if let lower, value < lower { continue }
                if let upper, value > upper { continue }
                result.insert(index)
            }
            return result
        case .and(let parts):
            var result = Bitset(count: entries.count, filled: true)
            for part in parts { result.formIntersection(evaluate(part, fullText: fullText, memo: memo)) }
            return result
        case .or(let parts):
            var result = Bitset(count: entries.count, filled: false)
            for part in parts { result.formUnion(evaluate(part, fullText: fullText, memo: memo)) }
            return result
        case .not(let inner):
            var result = evaluate(inner, fullText: fullText, memo: memo)
            result.invert()
            return result
        }
    }

    /// The folded words of each searchable text of `entries[index]` (only of `field`, when
    /// given, for the first phrase of a query; every field from the second on, kept in `memo`).
    private func phraseTexts(of index: Int, field: String?, memo: PhraseMemo) -> [(field: String, words: [String])] {
        if let known = memo.words[index] { return known }
        let keep = memo.phrasesSeen > 1 && memo.wordsKept < PhraseMemo.maximumWordsKept
        var texts: [(field: String, words: [String])] = []
        for (name, text) in SearchIndex.searchableTexts(of: entries[index]) {
            let indexName = SearchIndex.indexName(name)
            if !keep, let field, indexName != field { continue }
            texts.append((indexName, FoldedWords.of(Folding.fold(text))))
        }
        if keep {
            memo.words[index] = texts
            memo.wordsKept += texts.reduce(0) { $0 + $1.words.count }
        }
        return texts
    }

    /// References whose PDFs hold the term, by the full-text index (none without one).
    private func fullTextMatches(_ term: FullTextTerm, _ fullText: (any FullTextMatching)?) -> Bitset {
        var result = Bitset(count: entries.count, filled: false)
        for index in fullText?.entries(matching: term) ?? [] where index >= 0 && index < entries.count {
            result.insert(index)
        }
        return result
    }

    /// References with a word starting with `prefix` (or equal to it) in `field`, or in any.
    private func matches(prefix: String, field: String?, exact: Bool = false) -> Bitset {
        var result = Bitset(count: entries.count, filled: false)
        let postings: WordPostings?
        if let field {
            postings = byField[SearchIndex.indexName(field)]
        } else {
            postings = any
        }
        postings?.forEachList(startingWith: prefix, exact: exact) { list in
            for id in list { result.insert(Int(id)) }
        }
        return result
    }

    // MARK: - What is indexed

    /// `journal` also finds `journaltitle` (biblatex) and `booktitle`; `author` finds editors
    /// too, as the list shows them when there are no authors.
    static func indexName(_ field: String) -> String {
        switch field {
        case "journaltitle", "booktitle": return "journal"
        case "editor": return "author"
        default: return field
        }
    }

    /// The decoded texts of an entry that search looks at, by lower-case field name.
    static func searchableTexts(of entry: Entry) -> [(String, String)] {
        var texts: [(String, String)] = [("key", entry.key), ("type", entry.type)]
        for field in entry.fields where !field.kind.isBibDeskFile {
            texts.append((entry.name(of: field), entry.decodedText(of: field)))
        }
        return texts
    }
}

extension Entry {
    /// The decoded value of a field by name, or the key and type for `key` and `type`.
    func value(named name: String) -> String? {
        switch name {
        case "key": return key
        case "type": return type
        case "year": return year
        default: return decoded(name)
        }
    }
}

/// The words of folded text: runs of letters and digits of any script (so `c++` is `c`,
/// `o'brien` is `o` and `brien`, and `日本語` is one word). Query and index split the same way.
public enum FoldedWords {
    /// The words of folded text, as strings.
    public static func of(_ folded: String) -> [String] {
        var words: [String] = []
        var text = folded
        text.withUTF8 { bytes in
            forEachWord(in: bytes) { words.append(String(decoding: $0, as: UTF8.self)) }
        }
        return words
    }

    /// Calls `body` with the bytes of each word of folded UTF-8 text, without copying.
    static func forEachWord(in text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var position = 0
        let count = text.count
        while position < count {
            let length = wordScalarLength(text, position)
            if length <= 0 {
                position += length == 0 ? 1 : -length
                continue
            }
            let start = position
            position += length
            while position < count {
                let next = wordScalarLength(text, position)
                if next <= 0 { break }
                position += next
            }
            body(UnsafeBufferPointer(rebasing: text[start..<position]))
        }
    }

    /// The byte length of the scalar at `index` when it is a letter or digit; otherwise 0 for
    /// an ASCII byte, or minus its length.
    @inline(__always) static func wordScalarLength(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
        let byte = text[index]
        if byte < 0x80 {
            let isWord = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
            return isWord ? 1 : 0
        }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= text.count else { return -1 }
        var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<Swift.max(1, length) { value = value << 6 | UInt32(text[index + offset] & 0x3F) }
        guard length > 1, let scalar = Unicode.Scalar(value) else { return -length }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark ? length : -length
    }
}

/// Finds a phrase in a field's words: every word but the last exactly, the last as a prefix (it
/// is still being typed). Knuth–Morris–Pratt over the exact words, so that a long phrase in a
/// long field costs their lengths added, not multiplied.
struct PhraseMatcher {
    private let exact: [String]
    private let last: String
    /// For each length of exact words matched, the longest proper prefix that is also a suffix.
    private let fallback: [Int]

    init(_ words: [String]) {
        exact = Array(words.dropLast())
        last = words.last ?? ""
        var fallback = [Int](repeating: 0, count: exact.count)
        var length = 0
        for index in exact.indices.dropFirst() {
            while length > 0 && exact[index] != exact[length] { length = fallback[length - 1] }
            if exact[index] == exact[length] { length += 1 }
            fallback[index] = length
        }
        self.fallback = fallback
    }

    /// True when the phrase occurs in `words`.
    func occurs(in words: [String]) -> Bool {
        guard words.count > exact.count else { return false }
        if exact.isEmpty { return words.contains { $0.hasPrefix(last) } }
        var matched = 0
        for (index, word) in words.enumerated() {
            while matched > 0 && word != exact[matched] { matched = fallback[matched - 1] }
            if word == exact[matched] { matched += 1 }
            if matched == exact.count {
                if index + 1 < words.count && words[index + 1].hasPrefix(last) { return true }
                matched = fallback[matched - 1]
            }
        }
        return false
    }
}

/// Sorted words, each with the sorted list of references that use it (all lists in one array).
struct WordPostings: Sendable {
    private let words: [String]
    /// Word `i`'s references are `postings[starts[i] ..< starts[i + 1]]`.
    private let starts: [Int32]
    private let postings: [Int32]

    /// Collects (word, reference) pairs, references in increasing order.
    struct Builder {
        private var wordIDs: [Int32] = []
        private var entryIDs: [Int32] = []

        mutating func add(_ word: Int32, entry: Int32) {
            wordIDs.append(word)
            entryIDs.append(entry)
        }

        /// The postings of the words used here; `words` names every word id. `rank` has -1 for
        /// every word id, before and after: shared by the builders of one index, so that each
        /// costs the words it holds, not every word of the library (thousands of field names,
        /// each with a builder, would otherwise cost their number times the words').
        func build(words: [String], rank: inout [Int]) -> WordPostings {
            var used: [Int] = []
            for id in wordIDs where rank[Int(id)] == -1 {
                rank[Int(id)] = 0
                used.append(Int(id))
            }
            let order = used.sorted { words[$0] < words[$1] }
            defer { for id in order { rank[id] = -1 } }
            for (position, id) in order.enumerated() { rank[id] = position }
            // Count each (word, reference) once: a word's pairs come in reference order, so a
            // repeat is always the pair just before it for that word.
            var last = [Int32](repeating: -1, count: order.count)
            var starts = [Int32](repeating: 0, count: order.count + 1)
            for (id, entry) in zip(wordIDs, entryIDs) {
                let slot = rank[Int(id)]
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
                let slot = rank[Int(id)]
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

/// Distinct byte strings, numbered in the order first met; found again by their bytes.
struct ByteStringTable {
    private var storage: [UInt8] = []
    private var offsets: [Int] = []
    private var hashes: [UInt64] = []
    private(set) var strings: [String] = []
    private var slots = [Int32](repeating: -1, count: 1024)

    /// The number of `bytes`, adding it when new.
    mutating func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        let found: Int? = storage.withUnsafeBufferPointer { stored in
            while slots[slot] >= 0 {
                let candidate = Int(slots[slot])
                let start = offsets[candidate]
                let end = candidate + 1 < offsets.count ? offsets[candidate + 1] : stored.count
                if hashes[candidate] == hash, end - start == bytes.count,
                   let storedBase = stored.baseAddress, let base = bytes.baseAddress,
                   memcmp(storedBase + start, base, bytes.count) == 0 {
                    return candidate
                }
                slot = (slot + 1) & mask
            }
            return nil
        }
        if let found { return found }
        let id = strings.count
        offsets.append(storage.count)
        storage.append(contentsOf: bytes)
        hashes.append(hash)
        strings.append(String(decoding: bytes, as: UTF8.self))
        slots[slot] = Int32(id)
        if strings.count * 2 > slots.count { grow() }
        return id
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }
}

/// A set of reference positions as bits.
struct Bitset {
    private var words: [UInt64]
    let capacity: Int

    init(count: Int, filled: Bool) {
        capacity = count
        words = [UInt64](repeating: filled ? ~0 : 0, count: (count + 63) / 64)
        if filled { trimTail() }
    }

    mutating func insert(_ index: Int) {
        words[index >> 6] |= 1 << UInt64(index & 63)
    }

    mutating func formIntersection(_ other: Bitset) {
        for index in words.indices { words[index] &= other.words[index] }
    }

    mutating func formUnion(_ other: Bitset) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    mutating func invert() {
        for index in words.indices { words[index] = ~words[index] }
        trimTail()
    }

    private mutating func trimTail() {
        let extra = words.count * 64 - capacity
        if extra > 0, !words.isEmpty { words[words.count - 1] &= ~0 >> UInt64(extra) }
    }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    var members: [Int] {
        var result: [Int] = []
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(wordIndex * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
