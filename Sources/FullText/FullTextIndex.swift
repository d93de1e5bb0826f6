import DiskIO
import Foundation
import GRDB

/// The full-text index of PDFs: `fulltext.sqlite` (SQLite FTS5), keyed by content fingerprint.
///
/// `update` brings it in line with the PDFs of a library in the background; `paths(matching:)`,
/// `search` and `hits` answer `text:` queries meanwhile. The database is in WAL mode behind a
/// connection pool, so queries read the last committed state while an update writes: one
/// transaction per document, so a cancelled or killed update leaves whole documents or none.
public final class FullTextIndex: Sendable {
    /// The database file.
    public let url: URL
    let database: DatabasePool
    /// Held by `update`, so that two updates do not read the same files.
    let updating = NSLock()

    /// Opens the index at `url`, creating and migrating it as needed (and its folder).
    ///
    /// - Throws: GRDB's `DatabaseError` when the file cannot be opened or is not an index.
    public init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            db.add(tokenizer: FoldingTokenizer.self)
            PageRankFunction.register(db)
            // WAL (a DatabasePool sets it): NORMAL never corrupts; a crash can lose the last
            // documents, which the next update reads again.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        database = try ExclusiveFileLock.whileSettingUp(database: url) {
            let database = try DatabasePool(path: url.path, configuration: configuration)
            try IndexSchema.migrator.migrate(database)
            return database
        }
        try database.write(IndexSchema.checkTextVersion)
    }

    /// `$XDG_CACHE_HOME/bibread/fulltext.sqlite`, or `~/.cache/bibread/fulltext.sqlite` when
    /// `XDG_CACHE_HOME` is unset or not an absolute path (the XDG spec says to ignore it then).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let cache: URL
        if let folder = environment["XDG_CACHE_HOME"], folder.hasPrefix("/") {
            cache = URL(fileURLWithPath: folder)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
            cache = home.appendingPathComponent(".cache")
        }
        return cache.appendingPathComponent("bibread").appendingPathComponent("fulltext.sqlite")
    }

    /// The number of documents indexed and their pages (pages without text included).
    public func statistics() throws -> (documents: Int, pages: Int) {
        try database.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*), COALESCE(SUM(page_count), 0) FROM document")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// The files that could not be read (path → reason), remembered until they change.
    public func failures() throws -> [String: String] {
        try database.read { db in
            var failures: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, failure FROM file WHERE failure IS NOT NULL") {
                failures[row[0]] = row[1]
            }
            return failures
        }
    }

    /// Whether the index holds the text of the file at `path` as it was when last indexed (the
    /// path is known and its document is stored). Does not look at the file.
    public func isIndexed(path: String) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM file JOIN document USING (fingerprint) WHERE file.path = ?)
                """, arguments: [path]) ?? false
        }
    }
}
