import BibModel

/// The query language: parse, then search a small library with what was parsed.
enum SearchFuzzing {
    static let index = SearchIndex(entries: Library.parse([
        (path: BibTeXFuzzing.libraryPath, bytes: Array(BibTeXFuzzing.sampleEntries.utf8)),
    ]).entries)

    static func query(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        let query: Query
        do {
            query = try Query(parsing: text)
        } catch let error as QueryError {
            try check(error.column >= 0 && error.column <= text.count + 1,
                      "query error column \(error.column) outside the query of \(text.count) characters")
            return
        }
        let results = index.search(query)
        try check(results.allSatisfy { index.entries.indices.contains($0) }, "search results outside the library")
        try check(Set(results).count == results.count, "search results repeat a reference")
        try check(index.count(query) == results.count, "count(\(query)) differs from search(…).count")
    }
}
