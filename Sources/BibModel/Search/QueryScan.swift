import Dispatch
import Foundation

/// A query answered by reading the references once, without building a `SearchIndex`: for a
/// one-shot search (`bibread list --search`). Only the fields a query names are decoded, each
/// reference at most once per field, on every core; the answer is the one `SearchIndex.search`
/// gives (`QueryScanTests` compares them on the corpora).
public enum QueryScan {
    /// The positions (in `entries`) of the references that match `query`, in library order.
    ///
    /// `text:` terms need the PDFs' index: a query with them is answered by a `SearchIndex`.
    public static func search(_ query: Query, in entries: [Entry], fullText: (any FullTextMatching)? = nil) -> [Int] {
        if !query.fullTextTerms.isEmpty {
            return SearchIndex(entries: entries).search(query, fullText: fullText)
        }
        if query == .all { return Array(entries.indices) }
        let count = entries.count
        let parts = count >= parallelMinimum ? ProcessInfo.processInfo.activeProcessorCount * 4 : 1
        let found = LockedValue([[Int]](repeating: [], count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var matched: [Int] = []
            for index in (part * count / parts)..<((part + 1) * count / parts) {
                var texts = EntryTexts(entry: entries[index])
                if texts.matches(query) { matched.append(index) }
            }
            found.withLock { $0[part] = matched }
        }
        return found.withLock { $0 }.flatMap { $0 }
    }

    /// Libraries with fewer references are scanned on one thread.
    static let parallelMinimum = 4096
}

/// The folded texts of one reference, decoded field by field as a query asks for them.
private struct EntryTexts {
    let entry: Entry
    /// Folded texts by index name (`SearchIndex.indexName`); `nil` holds every field's.
    private var folded: [String?: [(field: String, text: String)]] = [:]

    init(entry: Entry) {
        self.entry = entry
    }

    mutating func matches(_ query: Query) -> Bool {
        switch query {
        case .all:
            return true
        case .words(FullTextTerm.field?, _), .phrase(FullTextTerm.field?, _):
            return false
        case .words(let field, let words):
            let wanted = field.map(SearchIndex.indexName)
            let texts = self.texts(wanted)
            return words.allSatisfy { prefix in texts.contains { FoldedWords.contains(prefix: prefix, in: $0.text) } }
        case .phrase(let field, let words):
            let wanted = field.map(SearchIndex.indexName)
            let phrase = PhraseMatcher(words)
            return texts(wanted).contains { phrase.occurs(in: FoldedWords.of($0.text)) }
        case .range(let field, let lower, let upper):
            let value = field == "year" ? entry.year.flatMap { Int($0.prefix(4)) } : entry.value(named: field).flatMap { Int($0) }
            guard let value else { return false }
            if let lower, value < lower { return false }
            if let upper, value > upper { return false }
            return true
        case .and(let parts):
            for part in parts where !matches(part) { return false }
            return true
        case .or(let parts):
            for part in parts where matches(part) { return true }
            return false
        case .not(let inner):
            return !matches(inner)
        }
    }

    /// The folded searchable texts of the fields that index as `wanted` (every field for nil).
    private mutating func texts(_ wanted: String?) -> [(field: String, text: String)] {
        if let known = folded[wanted] { return known }
        var texts: [(field: String, text: String)] = []
        if let all = wanted == nil ? nil : folded[nil] {
            texts = all.filter { $0.field == wanted }
        } else {
            if wanted == nil || wanted == "key" { texts.append(("key", Folding.fold(entry.key))) }
            if wanted == nil || wanted == "type" { texts.append(("type", Folding.fold(entry.type))) }
            for field in entry.fields where !field.kind.isBibDeskFile {
                let name = SearchIndex.indexName(entry.name(of: field))
                if let wanted, name != wanted { continue }
                texts.append((name, Folding.fold(entry.decodedText(of: field))))
            }
        }
        folded[wanted] = texts
        return texts
    }
}
