import Foundation
import GRDB

extension FullTextIndex {
    /// How many words a snippet shows.
    static let snippetWords = 16

    /// The files whose text matches: `words` each as a prefix (`dynam` finds `dynamic`), all of
    /// them on the same page; or, with `phrase`, the words in a row on a page, the last one a
    /// prefix. Folded like bibread's reference search (case, diacritics, special letters).
    /// Empty when the words hold no word (`++`). The call for filtering the references: one pass
    /// over the matching pages, no ranking.
    public func paths(matching words: [String], phrase: Bool) throws -> Set<String> {
        guard let expression = MatchExpression.make(words: words, phrase: phrase) else { return [] }
        return try database.read { db in
            var documents = Set<Int64>()
            let ids = try Int64.fetchCursor(db, sql: "SELECT rowid FROM page_text WHERE page_text MATCH ?", arguments: [expression])
            while let id = try ids.next() { documents.insert(IndexSchema.document(ofPage: id)) }
            return Set(try documentFiles(documents, db).values.flatMap(\.paths))
        }
    }

    /// The pages matching (as for `paths(matching:phrase:)`), best first by bm25, at most
    /// `limit`, each with a snippet. Ranks every matching page of the index: for a word on most
    /// pages, use `hits` for the references on screen instead.
    public func search(words: [String], phrase: Bool, limit: Int = 100) throws -> [PageHit] {
        guard let expression = MatchExpression.make(words: words, phrase: phrase), limit > 0 else { return [] }
        let builder = SnippetBuilder(words: words, phrase: phrase, window: Self.snippetWords)
        return try database.read { db in
            let ranked = try Row.fetchAll(db, sql: """
                SELECT rowid, rank FROM page_text WHERE page_text MATCH ? ORDER BY rank LIMIT ?
                """, arguments: [expression, limit]).map { (id: $0[0] as Int64, rank: $0[1] as Double) }
            let files = try documentFiles(Set(ranked.map { IndexSchema.document(ofPage: $0.id) }), db)
            let texts = try pageTexts(ranked.map(\.id), db)
            return ranked.compactMap { page in
                guard let file = files[IndexSchema.document(ofPage: page.id)] else { return nil }
                return PageHit(fingerprint: file.fingerprint, paths: file.paths, page: IndexSchema.number(ofPage: page.id),
                               rank: page.rank, snippet: builder.snippet(of: texts[page.id] ?? ""))
            }
        }
    }

    /// For each path that matches (among `paths`, or all when nil): its best pages, at most
    /// `pagesPerDocument`, best first, with snippets. Paths with the same content get the same
    /// hits. Pages are ranked by bm25 with the query words weighted alike (`PageRankFunction`).
    /// One pass over the matching pages, ranking only those of the paths asked for: ask for the
    /// references on screen.
    public func hits(words: [String], phrase: Bool, in paths: Set<String>?,
                     pagesPerDocument: Int = 3) throws -> [String: [PageHit]] {
        guard let expression = MatchExpression.make(words: words, phrase: phrase), pagesPerDocument > 0 else { return [:] }
        let builder = SnippetBuilder(words: words, phrase: phrase, window: Self.snippetWords)
        return try database.read { db in
            var wanted: [Int64: (fingerprint: String, paths: [String])]?
            if let paths {
                let files = try pathDocuments(paths, db)
                guard !files.isEmpty else { return [:] }
                wanted = files
            }
            // The rank of the pages of the documents wanted only (SQLite tests the document
            // before computing the rank). Not "ORDER BY rank": FTS5 would rank every match.
            var ranked: [Int64: [(id: Int64, rank: Double)]] = [:]
            let rows: RowCursor
            if let wanted, let first = wanted.keys.min(), let last = wanted.keys.max() {
                // The rowid range lets FTS5 skip the pages before and after the wanted documents.
                rows = try Row.fetchCursor(db, sql: """
                    SELECT rowid, \(PageRankFunction.name)(page_text) FROM page_text
                    WHERE page_text MATCH ? AND rowid BETWEEN ? AND ?
                    AND (rowid >> \(IndexSchema.pageBits)) IN (SELECT value FROM json_each(?))
                    """, arguments: [expression, IndexSchema.pageIDs(ofDocument: first).lowerBound,
                                     IndexSchema.pageIDs(ofDocument: last).upperBound, Self.jsonArray(wanted.keys)])
            } else {
                rows = try Row.fetchCursor(db, sql: "SELECT rowid, \(PageRankFunction.name)(page_text) FROM page_text WHERE page_text MATCH ?",
                                           arguments: [expression])
            }
            while let row = try rows.next() {
                let id: Int64 = row[0]
                ranked[IndexSchema.document(ofPage: id), default: []].append((id, row[1]))
            }
            let files = try wanted ?? documentFiles(Set(ranked.keys), db)
            var best: [Int64: [(id: Int64, rank: Double)]] = [:]
            for (document, pages) in ranked where files[document] != nil {
                best[document] = Array(pages.sorted { $0.rank < $1.rank || ($0.rank == $1.rank && $0.id < $1.id) }
                    .prefix(pagesPerDocument))
            }
            let texts = try pageTexts(best.values.flatMap { $0.map(\.id) }, db)
            var result: [String: [PageHit]] = [:]
            for (document, pages) in best {
                guard let file = files[document] else { continue }
                let hits = pages.map { page in
                    PageHit(fingerprint: file.fingerprint, paths: file.paths, page: IndexSchema.number(ofPage: page.id),
                            rank: page.rank, snippet: builder.snippet(of: texts[page.id] ?? ""))
                }
                for path in file.paths { result[path] = hits }
            }
            return result
        }
    }

    /// The stored text of pages, by id.
    private func pageTexts(_ ids: [Int64], _ db: Database) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        var texts: [Int64: String] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, text FROM page WHERE id IN (SELECT value FROM json_each(?))",
                                       arguments: [Self.jsonArray(ids)])
        while let row = try rows.next() { texts[row[0]] = row[1] }
        return texts
    }

    /// The fingerprint and the sorted paths of each of `documents`.
    private func documentFiles(_ documents: Set<Int64>, _ db: Database) throws -> [Int64: (fingerprint: String, paths: [String])] {
        guard !documents.isEmpty else { return [:] }
        return try files(sql: """
            SELECT document.id, document.fingerprint, file.path FROM document JOIN file USING (fingerprint)
            WHERE document.id IN (SELECT value FROM json_each(?)) ORDER BY file.path
            """, argument: Self.jsonArray(documents), db)
    }

    /// The documents of `paths` that are indexed, with their fingerprint and the paths of
    /// `paths` that hold each (sorted).
    private func pathDocuments(_ paths: Set<String>, _ db: Database) throws -> [Int64: (fingerprint: String, paths: [String])] {
        guard !paths.isEmpty else { return [:] }
        let json = String(decoding: try JSONEncoder().encode(Array(paths)), as: UTF8.self)
        return try files(sql: """
            SELECT document.id, document.fingerprint, file.path FROM file JOIN document USING (fingerprint)
            WHERE file.path IN (SELECT value FROM json_each(?)) ORDER BY file.path
            """, argument: json, db)
    }

    private func files(sql: String, argument: String, _ db: Database) throws -> [Int64: (fingerprint: String, paths: [String])] {
        var files: [Int64: (fingerprint: String, paths: [String])] = [:]
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [argument])
        while let row = try rows.next() {
            files[row[0], default: (row[1], [])].paths.append(row[2])
        }
        return files
    }

    /// Integers as a JSON array, for `json_each`.
    private static func jsonArray(_ values: some Sequence<Int64>) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }
}
