import BibModel
import Foundation
import FullText

/// The PDFs of a library that are on this machine (here or in the sync cache), and which
/// references each belongs to.
public struct LibraryPDFs: Sendable {
    /// The PDFs' paths, each once.
    public let paths: [String]
    /// The references (positions in the library) linking each path.
    public let entriesByPath: [String: [Int]]
    /// The PDFs each .bib file of the library links (by the file's absolute path; a file that
    /// links none is there too): what the full-text index records as linked by each library.
    public let pathsByLibrary: [String: [String]]

    /// Looks at the disk for every linked PDF of `library`.
    public init(library: Library) {
        self.init(entries: library.entries, files: library.files.map(\.source.path))
    }

    /// Looks at the disk for every linked PDF of `entries` (positions are in this array);
    /// `files`, the .bib files they were read from, are listed in `pathsByLibrary` even when
    /// they link nothing.
    public init(entries: [Entry], files: [String] = []) {
        var entriesByPath: [String: [Int]] = [:]
        var paths: [String] = []
        var pathsByLibrary: [String: [String]] = [:]
        for file in files { pathsByLibrary[Self.libraryName(file)] = [] }
        for (position, entry) in entries.enumerated() {
            for file in entry.links.files where file.isPDF {
                guard let path = FileLocation.of(file).path else { continue }
                if entriesByPath[path] == nil { paths.append(path) }
                entriesByPath[path, default: []].append(position)
                pathsByLibrary[Self.libraryName(entry.source.path), default: []].append(path)
            }
        }
        self.paths = paths
        self.entriesByPath = entriesByPath
        self.pathsByLibrary = pathsByLibrary
    }

    /// The name the full-text index knows a .bib file by: its absolute path.
    public static func libraryName(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

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
