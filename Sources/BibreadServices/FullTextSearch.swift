import BibModel
import Foundation
import FullText
import BibreadValues

/// Answers `text:` terms for a library from the full-text index.
public enum FullTextSearch {
    /// For each term, the references whose PDFs hold it (the fast filter); the best pages with
    /// snippets only for `pagesFor` (positions: the references on screen), since ranking and
    /// snippets cost per page.
    public static func results(for terms: [FullTextTerm], index: FullTextIndex, pdfs: LibraryPDFs,
                               pagesFor positions: Set<Int>? = nil, pagesPerEntry: Int = 3) throws -> FullTextResults {
        var matches: [FullTextTerm: Set<Int>] = [:]
        var matchedPaths = Set<String>()
        for term in terms {
            var entries = Set<Int>()
            for path in try index.paths(matching: term.words, phrase: term.isPhrase) {
                guard let owners = pdfs.entriesByPath[path] else { continue }
                entries.formUnion(owners)
                matchedPaths.insert(path)
            }
            matches[term] = entries
        }
        let results = FullTextResults(terms: terms, matches: matches, pages: [:])
        let wanted = positions.map { Set($0).intersection(results.matchedEntries) } ?? results.matchedEntries
        let pages = try self.pages(for: terms, entries: wanted, index: index, pdfs: pdfs, pagesPerEntry: pagesPerEntry)
        return FullTextResults(terms: terms, matches: matches, pages: pages)
    }

    /// The best pages, with snippets, of the PDFs of `entries` for `terms`, best first.
    public static func pages(for terms: [FullTextTerm], entries: Set<Int>, index: FullTextIndex, pdfs: LibraryPDFs,
                             pagesPerEntry: Int = 3) throws -> [Int: [FullTextPage]] {
        var paths = Set<String>()
        for (path, owners) in pdfs.entriesByPath where !entries.isDisjoint(with: owners) { paths.insert(path) }
        guard !paths.isEmpty else { return [:] }
        var hitsByEntry: [Int: [PageHit]] = [:]
        for term in terms {
            for (path, hits) in try index.hits(words: term.words, phrase: term.isPhrase, in: paths, pagesPerDocument: pagesPerEntry) {
                for position in pdfs.entriesByPath[path] ?? [] where entries.contains(position) {
                    hitsByEntry[position, default: []] += hits
                }
            }
        }
        var pages: [Int: [FullTextPage]] = [:]
        for (position, hits) in hitsByEntry {
            var seen = Set<Int>()
            pages[position] = hits.sorted { $0.rank < $1.rank }
                .filter { seen.insert($0.page).inserted }
                .prefix(pagesPerEntry)
                .map { FullTextPage(page: $0.page, snippet: $0.snippet.text) }
        }
        return pages
    }
}
