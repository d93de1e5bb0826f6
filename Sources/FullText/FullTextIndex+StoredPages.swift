import Foundation
import GRDB

extension FullTextIndex {
    /// The text the index holds for the file at `path`, page `n`'s at index `n - 1` (a page
    /// without text as an empty string), or nil when the index does not hold it as the file is
    /// now: not indexed, unreadable when indexed, or changed since (its size or modification
    /// time is not the one stored, or the document does not have `pageCount` pages).
    public func storedPages(ofFileAt path: String, pageCount: Int) throws -> [String]? {
        guard let status = FileStatus(path: path), pageCount > 0, pageCount <= IndexSchema.maximumPages else { return nil }
        return try database.read { db -> [String]? in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT document.id, document.page_count FROM file JOIN document USING (fingerprint)
                WHERE file.path = ? AND file.size = ? AND file.mtime = ?
                """, arguments: [path, status.size, status.modified]) else { return nil }
            let document: Int64 = row[0]
            guard row[1] as Int == pageCount else { return nil }
            var pages = [String](repeating: "", count: pageCount)
            let range = IndexSchema.pageIDs(ofDocument: document)
            let rows = try Row.fetchCursor(db, sql: "SELECT number, text FROM page WHERE id BETWEEN ? AND ?",
                                           arguments: [range.lowerBound, range.upperBound])
            while let page = try rows.next() {
                let number: Int = page[0]
                if number >= 1 && number <= pageCount { pages[number - 1] = page[1] }
            }
            return pages
        }
    }
}
