import Foundation

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
