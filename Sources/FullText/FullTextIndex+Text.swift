import Foundation
import GRDB

extension FullTextIndex {
    /// The text of every indexed page, in the order the pages were stored.
    public func pageTexts() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT text FROM page ORDER BY id") }
    }

    /// Stores the pages of a document that is not read from a PDF on disk (text made by a
    /// program), as `update` stores an extracted PDF: one transaction that replaces any
    /// document with the same `fingerprint`, found at `path` (with size 0 and no modification
    /// time, so an `update` that sees `path` reads it again).
    public func store(pages texts: [String], fingerprint: String, path: String) throws {
        let file = PlannedFile(path: path, status: FileStatus(size: 0, modified: 0), fingerprint: fingerprint)
        try database.write { db in try storeDocument(fingerprint, texts: texts, files: [file], db) }
    }
}
