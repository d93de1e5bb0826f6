import Foundation

/// The folded words of the texts phrases have read, by reference and index field, kept from one
/// search to the next (up to a limit): as a phrase is typed each key narrows the last key's
/// candidates, whose texts are then not decoded again. Shared by the copies of a `SearchIndex`
/// and safe to use from several threads.
final class PhraseWordCache: Sendable {
    private struct Key: Hashable {
        let index: Int
        let field: String
    }

    private struct Contents {
        var words: [Key: [[String]]] = [:]
        var wordsKept = 0
        /// The index fields that hold a word, by word: a library has thousands of field names.
        var fieldsHolding: [String: [String]] = [:]
    }

    private let contents = LockedValue(Contents())
    /// At about 32 bytes a word, 8 MB; past it the cache starts again empty.
    static let maximumWordsKept = 250_000

    /// The words of the texts of `entries[index]` that index as `field`, as `read` gives them
    /// (called when they are not kept).
    func words(of index: Int, field: String, read: () -> [[String]]) -> [[String]] {
        let key = Key(index: index, field: field)
        if let known = contents.withLock({ $0.words[key] }) { return known }
        let words = read()
        let count = words.reduce(0) { $0 + $1.count }
        contents.withLock { contents in
            if contents.wordsKept + count > PhraseWordCache.maximumWordsKept {
                contents.words = [:]
                contents.wordsKept = 0
            }
            contents.words[key] = words
            contents.wordsKept += count
        }
        return words
    }

    /// The index fields that hold `word` (as `find` gives them, when not kept); at most
    /// `maximumWordsKept` words are kept.
    func fields(holding word: String, find: () -> [String]) -> [String] {
        if let known = contents.withLock({ $0.fieldsHolding[word] }) { return known }
        let fields = find()
        contents.withLock { contents in
            if contents.fieldsHolding.count >= PhraseWordCache.maximumWordsKept { contents.fieldsHolding = [:] }
            contents.fieldsHolding[word] = fields
        }
        return fields
    }
}
