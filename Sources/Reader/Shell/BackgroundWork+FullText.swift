import BibModel
import BibreadServices
import BibreadValues
import Foundation
import FullText
import ReaderCore
import SyncEngine

/// The full-text index of the library's PDFs.
extension BackgroundWork {
    /// Works with the full-text index (nothing without one: `fullTextURL` nil); indexing stops
    /// between two documents once `token` is cancelled.
    public func perform(_ effect: FullTextEffect, token: CancellationToken, post: (Event) -> Void) {
        guard fullTextURL != nil else { return }
        switch effect {
        case .updateFullTextIndex:
            updateFullTextIndex(token: token, post: post)
        case .searchFullText(let terms):
            searchFullText(terms, post: post)
        case .loadFullTextPages(let terms, let positions):
            do {
                let pages = try FullTextSearch.pages(for: terms, entries: Set(positions), index: try openFullTextIndex(), pdfs: libraryPDFs())
                // Positions without pages get an empty list, so that they are not asked again.
                var all = pages
                for position in positions where all[position] == nil { all[position] = [] }
                post(.fullTextPages(terms: terms, pages: all))
            } catch {
                post(.fullTextFailed(message: "Full-text search: \(ErrorText.plain(error))"))
            }
        }
    }

    /// Stops indexing between two documents (the reader is quitting or reloading).
    public func stopIndexing() {
        jobs.cancel(.indexing)
    }

    /// The index, opened on first use.
    func openFullTextIndex() throws -> FullTextIndex {
        if let index = lock.withLock({ fullTextIndex }) { return index }
        // `perform` does nothing without an index; this only keeps the type honest.
        guard let fullTextURL else { throw CancellationError() }
        let index = try FullTextIndex(url: fullTextURL)
        lock.withLock { fullTextIndex = index }
        return index
    }

    private func libraryPDFs() -> LibraryPDFs {
        if let pdfs = lock.withLock({ pdfs }) { return pdfs }
        let found = LibraryPDFs(library: library)
        lock.withLock { pdfs = found }
        return found
    }

    /// Reads the new and changed PDFs into the index on every core at low priority, posting
    /// progress a few times a second.
    private func updateFullTextIndex(token: CancellationToken, post: (Event) -> Void) {
        let pdfs = libraryPDFs()
        guard !pdfs.paths.isEmpty else { return }
        do {
            let index = try openFullTextIndex()
            var lastPost = Date.distantPast
            // Every core, niced, so that the reader answers first. The index is shared with
            // other libraries: their PDFs stay.
            _ = try index.update(libraries: pdfs.pathsByLibrary, priority: .background, progress: { progress in
                let now = Date()
                guard now.timeIntervalSince(lastPost) > 0.2 || progress.done == progress.total else { return }
                lastPost = now
                post(.indexProgress(done: progress.done, total: progress.total))
            }, isCancelled: { token.isCancelled })
            // Quietly: the status line's "indexing PDFs" going away says it is done; problems
            // with single files are for `bibread index`, which lists them.
            post(.indexFinished(message: nil))
        } catch {
            post(.indexFinished(message: "The full-text index cannot be updated: \(ErrorText.plain(error))"))
        }
    }

    private func searchFullText(_ terms: [FullTextTerm], post: (Event) -> Void) {
        do {
            let results = try FullTextSearch.results(for: terms, index: try openFullTextIndex(), pdfs: libraryPDFs(), pagesFor: [])
            post(.fullTextResults(results))
        } catch {
            post(.fullTextFailed(message: "Full-text search: \(ErrorText.plain(error))"))
        }
    }
}
