import Dispatch
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
    private let phraseWords = PhraseWordCache()

    /// Builds the index of every field of every entry (the cite key counts as field `key`, the
    /// entry type as `type`).
    public init(entries: [Entry]) {
        self.entries = entries
        let count = entries.count
        let parts = count >= SearchIndex.parallelMinimum ? max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) : 1
        let collected = LockedValue([SearchIndexBuilder?](repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var builder = SearchIndexBuilder()
            builder.add((part * count / parts)..<((part + 1) * count / parts), of: entries)
            collected.withLock { $0[part] = builder }
        }
        // Taken out of `collected`, and each run out of `runs` as it is joined: the first is then
        // the only holder of its words, extended in place, and each other one is freed once
        // joined, not kept (and copied) until the postings are built.
        var runs: [SearchIndexBuilder] = collected.withLock { parts in
            let taken = parts.compactMap { $0 }
            parts = []
            return taken
        }
        var builder = runs.isEmpty ? SearchIndexBuilder() : runs.removeFirst()
        while !runs.isEmpty { builder.append(runs.removeFirst()) }
        (any, byField) = builder.build()
        years = builder.years
    }

    /// The postings of every word for all fields (`field` nil) or for one index name (for tests).
    func postings(of field: String?) -> WordPostings? {
        guard let field else { return any }
        return byField[field]
    }

    /// Libraries with fewer references are indexed on one thread.
    static let parallelMinimum = 8192

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
            // One word (a phrase as its first word is typed): the references with a word starting
            // with it in the field are those the phrase matches, with no text to read again.
            if words.count == 1 { return candidates(of: words, field: field) }
            memo.phrasesSeen += 1
            if let field { return phraseMatches(words, field: SearchIndex.indexName(field), memo: memo) }
            // A phrase lies within one field: only the references with all its words in the same
            // field are read, and only that field's texts (not those with the words spread over
            // several fields, such as `dynamic` in the title and `p` in `pages`).
            var result = Bitset(count: entries.count, filled: false)
            for name in fields(holding: words[0]) {
                result.formUnion(phraseMatches(words, field: name, memo: memo))
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

    /// References with every word of `words` (all but the last exactly, the last as a prefix)
    /// in `field`, or in any field.
    private func candidates(of words: [String], field: String?) -> Bitset {
        var candidates = Bitset(count: entries.count, filled: true)
        // The exact words first (they list fewer references than a prefix), and none after
        // the set is empty (a field without one of the words costs no prefix lookup).
        for word in words {
            candidates.formIntersection(matches(prefix: word, field: field, exact: word != words.last))
            if candidates.isEmpty { break }
        }
        return candidates
    }

    /// The index fields where some reference has the word `word`, sorted (kept from one search
    /// to the next: the first word of a phrase stays as the rest is typed).
    private func fields(holding word: String) -> [String] {
        phraseWords.fields(holding: word) {
            byField.keys.sorted().filter { name in
                var found = false
                byField[name]?.forEachList(startingWith: word, exact: true) { _ in found = true }
                return found
            }
        }
    }

    /// References where the phrase `words` occurs in a text of index field `field`: those with
    /// all its words in that field, their texts read again.
    private func phraseMatches(_ words: [String], field: String, memo: PhraseMemo) -> Bitset {
        var result = Bitset(count: entries.count, filled: false)
        let phrase = PhraseMatcher(words)
        let candidates = candidates(of: words, field: field)
        if candidates.isEmpty { return result }
        for index in candidates.members {
            let texts = phraseTexts(of: index, field: field, memo: memo)
            if texts.contains(where: { $0.field == field && phrase.occurs(in: $0.words) }) {
                result.insert(index)
            }
        }
        return result
    }

    /// The folded words of each searchable text of `entries[index]` (only of `field`, when
    /// given, for the first phrase of a query; every field from the second on, kept in `memo`).
    private func phraseTexts(of index: Int, field: String?, memo: PhraseMemo) -> [(field: String, words: [String])] {
        if let known = memo.words[index] { return known }
        let keep = memo.phrasesSeen > 1 && memo.wordsKept < PhraseMemo.maximumWordsKept
        if !keep, let field {
            // One phrase (as typed in the reader): its field's texts, kept from the last key.
            let words = phraseWords.words(of: index, field: field) {
                SearchIndex.searchableTexts(of: entries[index], indexedAs: field).map { FoldedWords.of(Folding.fold($0)) }
            }
            return words.map { (field, $0) }
        }
        var texts: [(field: String, words: [String])] = []
        for (name, text) in SearchIndex.searchableTexts(of: entries[index]) {
            texts.append((SearchIndex.indexName(name), FoldedWords.of(Folding.fold(text))))
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

    /// The decoded texts of an entry that search looks at and that index as `indexName`, in the
    /// order of `searchableTexts(of:)`; only these fields are decoded.
    static func searchableTexts(of entry: Entry, indexedAs indexName: String) -> [String] {
        var texts: [String] = []
        if indexName == "key" { texts.append(entry.key) }
        if indexName == "type" { texts.append(entry.type) }
        for field in entry.fields where !field.kind.isBibDeskFile && SearchIndex.indexName(entry.name(of: field)) == indexName {
            texts.append(entry.decodedText(of: field))
        }
        return texts
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
