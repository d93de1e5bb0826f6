import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import FullText
import SyncEngine

/// `text:` terms for `bibread list`, from the full-text index.
enum FullTextListing {
    /// `"fulltext": [{"page": 3, "snippet": "…"}]`.
    static func writePages(_ pages: [FullTextPage], to json: inout JSONWriter) {
        json.literalKey("fulltext")
        json.beginArray()
        for page in pages {
            json.beginObject()
            json.literalKey("page")
            json.integer(page.page)
            json.literalKey("snippet")
            json.string(page.snippet)
            json.endObject()
        }
        json.endArray()
    }

    static func results(for terms: [FullTextTerm], entries: [Entry]) throws -> FullTextResults {
        let url = FullTextIndex.defaultURL()
        guard FileManager.default.fileExists(atPath: url.path) else {
            Console.error("warning: no full-text index yet: text: terms match nothing until 'bibread index LIB.bib' has run")
            return FullTextResults(terms: terms, matches: [:], pages: [:])
        }
        do {
            return try FullTextSearch.results(for: terms, index: try FullTextIndex(url: url), pdfs: LibraryPDFs(entries: entries))
        } catch {
            Console.error("bibread: full-text search: \(ErrorText.plain(error))")
            throw ExitStatus.unreadable
        }
    }
}
