import CSQLiteConfig
import Foundation
import GRDB

/// What the cache knows about each file it holds: the remote's version (size, ETag or content
/// hash, modification time), when it was fetched and last read. SQLite in WAL mode: a file is
/// recorded in the same moment its `.part` is renamed into place, so a crash leaves either the
/// old record or the new one.
public final class CacheManifest: Sendable {
    /// One cached file.
    public struct Record: Sendable, Equatable {
        public var path: String
        public var size: Int64
        public var version: String?
        public var modified: Double?
        public var fetchedAt: Double
        public var lastRead: Double?

        public init(path: String, size: Int64, version: String?, modified: Double?, fetchedAt: Double, lastRead: Double?) {
            self.path = path
            self.size = size
            self.version = version
            self.modified = modified
            self.fetchedAt = fetchedAt
            self.lastRead = lastRead
        }
    }

    private let database: DatabaseQueue

    public init(url: URL) throws {
        database = try WALDatabase.open(at: url, migrator: Self.migrator) { db in
            // In WAL mode NORMAL never corrupts; a crash can lose the last records, and then
            // the next sync fetches those files again.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Nor is a checkpoint at close worth its two flushes to disk at the end of every
            // sync: the log stays for the next connection (SQLite checkpoints it as it grows).
            let status = csqlite_keep_log_on_close(db.sqliteConnection)
            guard status == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: status)) }
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE file (
                    path TEXT PRIMARY KEY NOT NULL,
                    size INTEGER NOT NULL,
                    version TEXT,
                    modified REAL,
                    fetched_at REAL NOT NULL,
                    last_read REAL
                )
                """)
        }
        migrator.registerMigration("v2 partial downloads") { db in
            try db.execute(sql: "CREATE TABLE partial (path TEXT PRIMARY KEY NOT NULL, version TEXT NOT NULL)")
        }
        migrator.registerMigration("v3 absent files") { db in
            try db.execute(sql: "CREATE TABLE absent (path TEXT PRIMARY KEY NOT NULL)")
        }
        return migrator
    }

    /// The remote paths a sync looked for and the remote did not have (linked, not there).
    public func absentPaths() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT path FROM absent ORDER BY path") }
    }

    /// Records what a sync found (one transaction): `absent` the remote does not have, `present`
    /// it has (no longer absent).
    public func noteLooked(absent: [String], present: [String]) throws {
        guard !absent.isEmpty || !present.isEmpty else { return }
        try database.write { db in
            let found = try db.makeStatement(sql: "DELETE FROM absent WHERE path = ?")
            for path in present { try found.execute(arguments: [path]) }
            let missing = try db.makeStatement(sql: "INSERT OR IGNORE INTO absent (path) VALUES (?)")
            for path in absent { try missing.execute(arguments: [path]) }
        }
    }

    /// The remote version each `.part` file belongs to.
    public func partialVersions() throws -> [String: String] {
        try database.read { db in
            var result: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, version FROM partial") { result[row["path"]] = row["version"] }
            return result
        }
    }

    /// Notes which remote version each download about to start belongs to (one transaction).
    public func startPartials(_ versions: [String: String]) throws {
        guard !versions.isEmpty else { return }
        try database.write { db in
            let statement = try db.makeStatement(sql: "INSERT OR REPLACE INTO partial (path, version) VALUES (?, ?)")
            for (path, version) in versions { try statement.execute(arguments: [path, version]) }
        }
    }

    /// Forgets which versions the `.part` files of `paths` belonged to (they were removed).
    public func forgetPartials(_ paths: [String]) throws {
        guard !paths.isEmpty else { return }
        try database.write { db in
            let statement = try db.makeStatement(sql: "DELETE FROM partial WHERE path = ?")
            for path in paths { try statement.execute(arguments: [path]) }
        }
    }

    public func record(_ path: String) throws -> Record? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM file WHERE path = ?", arguments: [path]).map(CacheManifest.record(from:))
        }
    }

    /// The sum of the recorded sizes: at least the bytes of the files still in place.
    public func recordedBytes() throws -> Int64 {
        try database.read { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM file") ?? 0 }
    }

    public func all() throws -> [Record] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM file ORDER BY path").map(CacheManifest.record(from:))
        }
    }

    /// Records a file that has just been put in place (keeping its last reading time).
    public func store(_ record: Record) throws {
        try store([record])
    }

    /// Records files just put in place, in one transaction (their downloads are no longer partial).
    public func store(_ records: [Record]) throws {
        guard !records.isEmpty else { return }
        try database.write { db in
            let finished = try db.makeStatement(sql: "DELETE FROM partial WHERE path = ?")
            let found = try db.makeStatement(sql: "DELETE FROM absent WHERE path = ?")
            for record in records {
                try finished.execute(arguments: [record.path])
                try found.execute(arguments: [record.path])
            }
            let statement = try db.makeStatement(sql: """
                INSERT INTO file (path, size, version, modified, fetched_at, last_read) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(path) DO UPDATE SET size = excluded.size, version = excluded.version,
                    modified = excluded.modified, fetched_at = excluded.fetched_at
                """)
            for record in records {
                try statement.execute(arguments: [record.path, record.size, record.version, record.modified, record.fetchedAt, record.lastRead])
            }
        }
    }

    public func markRead(_ path: String, at time: Double) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE file SET last_read = ? WHERE path = ?", arguments: [time, path])
        }
    }

    public func remove(_ path: String) throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM file WHERE path = ?", arguments: [path])
        }
    }

    private static func record(from row: Row) -> Record {
        Record(path: row["path"], size: row["size"], version: row["version"], modified: row["modified"],
               fetchedAt: row["fetched_at"], lastRead: row["last_read"])
    }
}
