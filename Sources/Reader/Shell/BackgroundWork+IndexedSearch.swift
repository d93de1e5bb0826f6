import BibreadValues
import Foundation
import FullText
import ReaderCore

/// The reading view's search helped by the full-text index: pages whose indexed text cannot
/// hold the query are not read from the PDF (`SearchSkeleton`).
extension BackgroundWork {
    /// The steps of a search from `start` (`DocumentSearch.page(atStep:…)`) whose pages may hold
    /// `query`, in order: every step, unless the full-text index holds the document as its file
    /// is now and the query can be told by skeletons (the reflowed view: the layout's columns
    /// put other characters side by side), when only those whose skeleton holds the query's.
    func searchSteps(for query: String, in path: String, pageCount: Int, from start: Int, forward: Bool,
                     mode: ReadingMode) -> [Int] {
        let every = Array(1...pageCount)
        guard mode == .reflow, let pieces = SearchSkeleton.pieces(of: query),
              let skeletons = skeletons(of: path, pageCount: pageCount) else { return every }
        return every.filter { step in
            let page = DocumentSearch.page(atStep: step, from: start, forward: forward, pageCount: pageCount)
            return SearchSkeleton.mayMatch(skeletons[page - 1], pieces: pieces)
        }
    }

    /// Reads the skeletons of the document at `path` from the full-text index, when it holds it,
    /// ahead of a search (the reader does this after the first page is shown).
    func prepareSearchSteps(in path: String, pageCount: Int) {
        guard pageCount > 0 else { return }
        _ = skeletons(of: path, pageCount: pageCount)
    }

    /// The skeleton of each page of the document at `path` from the full-text index (kept for the
    /// last document asked), or nil when the index does not hold it as the file is now.
    private func skeletons(of path: String, pageCount: Int) -> [[UInt8]]? {
        if let kept = lock.withLock({ indexedSkeletons }), kept.path == path { return kept.skeletons }
        // An index that is not there is not made for a search.
        let exists = fullTextURL.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        let texts = exists ? try? openFullTextIndex().storedPages(ofFileAt: path, pageCount: pageCount) : nil
        let skeletons = texts.map(Self.skeletons(of:))
        lock.withLock { indexedSkeletons = (path, skeletons) }
        return skeletons
    }

    /// The skeletons of `texts`, on one thread.
    static func skeletons(of texts: [String]) -> [[UInt8]] {
        var folder = SearchSkeleton.Folder()
        return texts.map { SearchSkeleton.of($0, folder: &folder) }
    }
}
