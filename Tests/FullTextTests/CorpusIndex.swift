import BibreadTestSupport
import Foundation
@testable import FullText
import GRDB

/// An index of two corpus PDFs and two sample papers, made once and shared by the tests that
/// only query it.
enum CorpusIndex {
    static let pdfs = [corpusPDF("R-intro.pdf"), corpusPDF("biblatex.pdf"), samplePDF("line-breaking.pdf"), samplePDF("tex-tour.pdf")]

    static let shared: Result<(index: FullTextIndex, summary: IndexSummary), any Error> = Result {
        let workspace = try Workspace()
        folder = workspace.folder.path
        // Removed when the test process exits (Swift Testing has no end-of-run hook).
        atexit { CorpusIndex.folder.map { _ = try? FileManager.default.removeItem(atPath: $0) } }
        let summary = try workspace.index.update(paths: pdfs, workers: 2)
        return (workspace.index, summary)
    }

    /// The shared index's folder, once made: set once, while `shared` is made (Swift makes
    /// static lets once, with a lock), and read at exit.
    nonisolated(unsafe) static var folder: String?

    static func index() throws -> FullTextIndex { try shared.get().index }
}

extension FullTextIndex {
    /// Runs FTS5's integrity check, which fails when the index and the page text disagree (a
    /// deleted page's words still in the index, say).
    func checkIntegrity() throws {
        try database.write { db in try db.execute(sql: "INSERT INTO page_text (page_text) VALUES ('integrity-check')") }
    }

    /// Per stored document: its path(s), its page count and the number of pages stored with text.
    func storedDocuments() throws -> [(fingerprint: String, pageCount: Int, storedPages: Int)] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT fingerprint, page_count, (SELECT COUNT(*) FROM page WHERE page.document = document.id) FROM document
                """).map { ($0[0], $0[1], $0[2]) }
        }
    }

    /// The stored text of each page of the document at `path` (empty for pages without text).
    func storedTexts(path: String) throws -> [String] {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT document.id, page_count FROM document JOIN file USING (fingerprint) WHERE file.path = ?
                """, arguments: [path]) else { return [] }
            var texts = Array(repeating: "", count: row[1] as Int)
            for page in try Row.fetchAll(db, sql: "SELECT number, text FROM page WHERE document = ?", arguments: [row[0] as Int64]) {
                texts[(page[0] as Int) - 1] = page[1]
            }
            return texts
        }
    }
}
