import GRDB

/// The tables of `fulltext.sqlite` and their migrations.
///
/// - `file`: every path given to `update`, with the size and modification time it had when it
///   was last looked at, and either the fingerprint of its content (a row of `document`) or why
///   it could not be read (`failure`; then `fingerprint` is NULL).
/// - `document`: one row per indexed content fingerprint.
/// - `page`: the text of each page with text, `id` = `document.id << 20 | number`, so a page's
///   FTS rowid tells its document without a lookup and a document's pages are one id range.
/// - `page_text`: the FTS5 index over `page.text` (external content: the text is stored once),
///   kept in step by triggers, so deleting a `page` row removes its words from the index.
/// - `link`: which library (a .bib file's absolute path) links which file path. The index is
///   shared by every library on the machine: a file is forgotten when the last library that
///   linked it stops linking it (or on a prune), not when another library does not link it.
enum IndexSchema {
    /// Bits of a page id that hold the page number (documents have fewer than 2^20 pages).
    static let pageBits: Int64 = 20

    /// The FTS rowid of page `number` of document `document`.
    static func pageID(document: Int64, number: Int) -> Int64 { document << pageBits | Int64(number) }

    /// The document of a page id.
    static func document(ofPage id: Int64) -> Int64 { id >> pageBits }

    /// The page number of a page id.
    static func number(ofPage id: Int64) -> Int { Int(id & ((1 << pageBits) - 1)) }

    /// The page ids of a document, as an inclusive range.
    static func pageIDs(ofDocument document: Int64) -> ClosedRange<Int64> {
        pageID(document: document, number: 0)...pageID(document: document, number: (1 << pageBits) - 1)
    }

    /// The most pages a document can have in the index; later pages are left out.
    static let maximumPages = (1 << pageBits) - 1

    /// How page text is made (PDFText's extraction and `PageTextNormalizer`). When it changes,
    /// bump it: an index made by another version is emptied and filled again.
    static let textVersion = 1

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE file (
                    path TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    mtime INTEGER NOT NULL,
                    fingerprint TEXT,
                    failure TEXT
                );
                CREATE INDEX file_fingerprint ON file (fingerprint);
                CREATE TABLE document (
                    id INTEGER PRIMARY KEY,
                    fingerprint TEXT NOT NULL UNIQUE,
                    page_count INTEGER NOT NULL,
                    indexed_at REAL NOT NULL
                );
                CREATE TABLE page (
                    id INTEGER PRIMARY KEY,
                    document INTEGER NOT NULL,
                    number INTEGER NOT NULL CHECK (number >= 1),
                    text TEXT NOT NULL
                );
                CREATE VIRTUAL TABLE page_text USING fts5 (
                    text, content = 'page', content_rowid = 'id', tokenize = '\(FoldingTokenizer.name)', prefix = '1 2 3 4'
                );
                CREATE TRIGGER page_inserted AFTER INSERT ON page BEGIN
                    INSERT INTO page_text (rowid, text) VALUES (new.id, new.text);
                END;
                CREATE TRIGGER page_deleted AFTER DELETE ON page BEGIN
                    INSERT INTO page_text (page_text, rowid, text) VALUES ('delete', old.id, old.text);
                END;
                CREATE TABLE setting (name TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
                """)
        }
        // Files indexed before this migration are linked by no library: updates keep them,
        // a prune drops those no library links by then.
        migrator.registerMigration("v2 links") { db in
            try db.execute(sql: """
                CREATE TABLE link (
                    library TEXT NOT NULL,
                    path TEXT NOT NULL,
                    PRIMARY KEY (library, path)
                ) WITHOUT ROWID;
                CREATE INDEX link_path ON link (path);
                """)
        }
        return migrator
    }

    /// Empties the index when it was made with another `textVersion` (every file is read again
    /// by the next update).
    static func checkTextVersion(_ db: Database) throws {
        let stored = try Int.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'text_version'")
        guard stored != textVersion else { return }
        if stored != nil {
            try db.execute(sql: """
                DELETE FROM file;
                DELETE FROM document;
                DELETE FROM page;
                """)
        }
        try db.execute(sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('text_version', ?)", arguments: [textVersion])
    }
}
