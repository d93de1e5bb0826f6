import Foundation

/// The keywords of a library, most used first, for completing a keyword as it is typed.
///
/// Keywords are read as the edit engine reads them (`KeywordList`: the `keywords` field's raw
/// value split at `,` and `;`), and counted without case: `Graphs` and `graphs` are one word,
/// spelled as most references spell it. Worked out once per library (it reads every
/// reference), then asked on every Tab.
public struct KeywordVocabulary: Sendable, Equatable {
    /// The words, most used first (ties in natural order).
    public private(set) var words: [String]
    /// How many references have each word, by its lower-cased text.
    private var counts: [String: Int]

    /// The keywords of every reference of `library`.
    public init(library: Library) {
        var counts: [String: Int] = [:]
        var spellings: [String: [String: Int]] = [:]
        for entry in library.entries {
            guard let value = entry.raw("keywords") else { continue }
            var seen = Set<String>()
            for item in KeywordList.items(in: value) {
                let lower = item.text.lowercased()
                guard seen.insert(lower).inserted else { continue }
                counts[lower, default: 0] += 1
                spellings[lower, default: [:]][item.text, default: 0] += 1
            }
        }
        let spelled = spellings.mapValues { forms in
            forms.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key ?? ""
        }
        self.init(counts: counts, spelled: spelled)
    }

    private init(counts: [String: Int], spelled: [String: String]) {
        self.counts = counts
        let ordered = spelled.map { (lower: $0.key, word: $0.value, order: NaturalOrder.key(for: $0.value)) }
            .sorted { left, right in
                let (a, b) = (counts[left.lower] ?? 0, counts[right.lower] ?? 0)
                if a != b { return a > b }
                return left.order != right.order ? left.order < right.order : left.word < right.word
            }
        words = ordered.map(\.word)
    }

    /// How many references have `word` (compared without case).
    public func count(of word: String) -> Int { counts[word.lowercased()] ?? 0 }

    /// The words that start with `prefix` (without case), most used first, leaving out those
    /// whose lower-cased text is in `excluded`.
    public func completions(of prefix: String, excluding excluded: Set<String> = []) -> [String] {
        let lower = prefix.lowercased()
        return words.filter { word in
            let folded = word.lowercased()
            return folded.hasPrefix(lower) && !excluded.contains(folded)
        }
    }

    /// The vocabulary after one reference gained `added` and lost `removed` (an edit made in
    /// the reader, before the library is read again).
    public func updated(adding added: [String], removing removed: [String]) -> KeywordVocabulary {
        var counts = self.counts
        var spelled = Dictionary(words.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for word in added {
            let lower = word.lowercased()
            counts[lower, default: 0] += 1
            if spelled[lower] == nil { spelled[lower] = word }
        }
        for word in removed {
            let lower = word.lowercased()
            guard let count = counts[lower] else { continue }
            if count > 1 {
                counts[lower] = count - 1
            } else {
                counts[lower] = nil
                spelled[lower] = nil
            }
        }
        return KeywordVocabulary(counts: counts, spelled: spelled)
    }
}

extension Entry {
    /// The reference's own keywords (not a cross-referenced parent's), as the file writes them
    /// and as `EntryEdit.addKeywords` and `.removeKeywords` compare them.
    public var ownKeywords: [String] {
        guard let field = fields.first(where: { !$0.isInherited && name(of: $0) == "keywords" }) else { return [] }
        return KeywordList.items(in: rawText(of: field)).map(\.text)
    }
}
