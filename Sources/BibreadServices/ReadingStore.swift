import BibModel
import BibreadValues
import DiskIO
import Foundation
import GRDB
import ReadingStateSync
import Synchronization

/// The SQLite state store, `$XDG_STATE_HOME/bibread/state.sqlite`: reading positions (and
/// reflow or layout) per document, when each reference was last read, bookmarks and page notes. Every write is one transaction in WAL mode,
/// so killing bibread at any moment leaves the last complete write.
public final class ReadingStore: Sendable {
    let database: DatabaseQueue
    /// This machine's id in the shared reading state; nil when the id file cannot be read (then
    /// changes are kept here only, and a sync says why: `machineProblem`).
    let machine: MachineID?
    /// The folder of the store (and of this machine's id).
    public let directory: URL
    /// The file that holds this machine's id.
    public let machineIDFile: String
    /// Why this machine has no id, when it has none.
    public let machineProblem: String?
    /// The wall clock of the reading state's operations, in milliseconds since 1970.
    let wallClock: @Sendable () -> Int64
    /// `PRAGMA data_version` when the bookmark tree was last read (nil: not read yet).
    let bookmarksVersion = Mutex<Int?>(nil)

    /// Opens (creating and migrating) the store in `directory`, whose `machine-id` names this
    /// machine in the shared reading state; `wallClock` dates its operations (the default: the
    /// system's clock, moved by `BIBREAD_TEST_CLOCK_OFFSET` seconds, so that tests can give one
    /// machine a clock that is wrong).
    public init(directory: URL, wallClock: @escaping @Sendable () -> Int64 = ReadingStore.systemWallClock) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(2)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let file = directory.appendingPathComponent("state.sqlite")
        database = try ExclusiveFileLock.whileSettingUp(database: file) {
            let database = try DatabaseQueue(path: file.path, configuration: configuration)
            try ReadingStore.migrator.migrate(database)
            return database
        }
        self.directory = directory
        machineIDFile = directory.appendingPathComponent("machine-id").path
        do {
            machine = try MachineIdentity.machineID(in: directory)
            machineProblem = nil
        } catch {
            machine = nil
            machineProblem = "\(error)"
        }
        self.wallClock = wallClock
        // What an earlier version kept is shared once, before any change is made and recorded.
        // (Read first: opening the store takes no write lock once that is done.)
        if let machine, try database.read({ db in try Self.latestTimestamp(db) == nil }) {
            try database.write { db in try bootstrapIfNeeded(db, machine: machine) }
        }
    }

    /// The system's clock in milliseconds since 1970, moved by `BIBREAD_TEST_CLOCK_OFFSET`
    /// seconds when that is set (a test's machine whose clock is wrong).
    public static let systemWallClock: @Sendable () -> Int64 = {
        let offset = ProcessInfo.processInfo.environment["BIBREAD_TEST_CLOCK_OFFSET"].flatMap(Double.init) ?? 0
        return Int64(((Date().timeIntervalSince1970 + offset) * 1000).rounded())
    }

    /// One transaction the screen then confirms (a bookmark, a note): written in full
    /// synchronous mode, so that when this returns the commit is on the disk (the write-ahead
    /// log flushed), not only in the system's cache. Positions, saved at every page turn, keep
    /// the normal mode, which a crash of bibread cannot undo either.
    func durableWrite<Value>(_ updates: (Database) throws -> Value) throws -> Value {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            defer { try? db.execute(sql: "PRAGMA synchronous = NORMAL") }
            var result: Result<Value, any Error> = .failure(CancellationError())
            try db.inTransaction {
                result = .success(try updates(db))
                return .commit
            }
            return try result.get()
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE position (
                    fingerprint TEXT PRIMARY KEY NOT NULL,
                    path TEXT NOT NULL,
                    page INTEGER NOT NULL CHECK (page >= 1),
                    scroll REAL NOT NULL DEFAULT 0,
                    updated_at REAL NOT NULL
                );
                CREATE TABLE reading (
                    library TEXT NOT NULL,
                    key TEXT NOT NULL,
                    last_read REAL NOT NULL,
                    PRIMARY KEY (library, key)
                );
                """)
        }
        migrator.registerMigration("v2: bookmarks and page notes") { db in
            try db.execute(sql: """
                CREATE TABLE bookmark_node (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    parent_id INTEGER REFERENCES bookmark_node(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('folder', 'bookmark', 'notemark')),
                    name TEXT NOT NULL,
                    cite_key TEXT,
                    library TEXT,
                    page INTEGER CHECK (page IS NULL OR page >= 1),
                    last_page INTEGER,
                    text TEXT,
                    created_at REAL NOT NULL,
                    CHECK (kind != 'bookmark' OR (cite_key IS NOT NULL AND page IS NOT NULL))
                );
                CREATE INDEX bookmark_node_parent ON bookmark_node (parent_id, position);
                CREATE INDEX bookmark_node_key ON bookmark_node (cite_key COLLATE NOCASE);
                CREATE TABLE page_note (
                    cite_key TEXT NOT NULL COLLATE NOCASE,
                    page INTEGER NOT NULL CHECK (page >= 1),
                    text TEXT NOT NULL,
                    updated_at REAL NOT NULL,
                    PRIMARY KEY (cite_key, page)
                );
                """)
        }
        migrator.registerMigration("v3: reading history per document") { db in
            // When each document was last read, and as which reference: found again by its
            // path, or by its content (the fingerprint) when moved or downloaded again, whatever
            // set of .bib files is open. The table `reading` (per set of files) is only read.
            try db.execute(sql: """
                CREATE TABLE document_read (
                    fingerprint TEXT NOT NULL,
                    cite_key TEXT NOT NULL COLLATE NOCASE,
                    path TEXT NOT NULL,
                    last_read REAL NOT NULL,
                    PRIMARY KEY (fingerprint, cite_key)
                );
                CREATE INDEX document_read_path ON document_read (path);
                """)
        }
        // A bookmark stores the page of the file (as before) and, when known, its printed label.
        migrator.registerMigration("v4: printed page of bookmarks") { db in
            try db.execute(sql: "ALTER TABLE bookmark_node ADD COLUMN page_label TEXT")
        }
        migrator.registerMigration("v5: the reading mode of each document") { db in
            // NULL in the rows of older stores: never chosen, shown reflowed.
            try db.execute(sql: "ALTER TABLE position ADD COLUMN mode TEXT CHECK (mode IS NULL OR mode IN ('reflow', 'layout'))")
        }
        migrator.registerMigration("v6: the shared reading state") { db in
            // Every change to what is shared (positions, read times, bookmarks, page notes) is
            // also an operation of the conflict-free reading state, this machine's and those
            // merged from the others' logs (`ReadingStateSync`); the tables above are what the
            // operations come to (materialized), and what the reader reads.
            try db.execute(sql: """
                CREATE TABLE state_operation (
                    sort_key TEXT PRIMARY KEY NOT NULL,
                    machine TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    body TEXT NOT NULL,
                    uploaded INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                CREATE INDEX state_operation_subject ON state_operation (subject, kind);
                CREATE INDEX state_operation_pending ON state_operation (machine) WHERE uploaded = 0;
                CREATE TABLE state_clock (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    latest TEXT NOT NULL
                );
                CREATE TABLE state_remote_file (
                    remote TEXT NOT NULL,
                    path TEXT NOT NULL,
                    version TEXT NOT NULL,
                    PRIMARY KEY (remote, path)
                );
                CREATE TABLE state_report (text TEXT PRIMARY KEY NOT NULL);
                CREATE TABLE state_upload (
                    remote TEXT PRIMARY KEY NOT NULL,
                    through TEXT NOT NULL
                );
                CREATE TABLE state_machine (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT,
                    forgotten INTEGER NOT NULL DEFAULT 0
                );
                ALTER TABLE bookmark_node ADD COLUMN uid TEXT;
                CREATE UNIQUE INDEX bookmark_node_uid ON bookmark_node (uid);
                ALTER TABLE position ADD COLUMN machine TEXT;
                ALTER TABLE page_note ADD COLUMN local_only INTEGER NOT NULL DEFAULT 0;
                """)
        }
        return migrator
    }

    /// Saves how a document is shown (keeping its position; a document with no position yet
    /// gets page 1).
    public func saveMode(_ mode: ReadingMode, fingerprint: String, path: String, at time: Double) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO position (fingerprint, path, page, scroll, updated_at, mode) VALUES (?, ?, 1, 0, ?, ?)
                ON CONFLICT(fingerprint) DO UPDATE SET mode = excluded.mode
                """, arguments: [fingerprint, path, time, mode.rawValue])
        }
    }

    /// Saves a document's position (replacing the previous one), as this machine's.
    public func save(_ position: ReadingPosition) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO position (fingerprint, path, page, scroll, updated_at, machine) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(fingerprint) DO UPDATE SET path = excluded.path, page = excluded.page,
                    scroll = excluded.scroll, updated_at = excluded.updated_at, machine = excluded.machine
                """, arguments: [position.fingerprint, position.path, position.page, position.scroll, position.updatedAt,
                                 machine?.rawValue])
            try record(db) { _ in
                .setPosition(fingerprint: position.fingerprint, page: position.page, scroll: min(1, max(0, position.scroll)))
            }
        }
    }

    /// The saved position of a document, by fingerprint.
    public func position(fingerprint: String) throws -> ReadingPosition? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM position WHERE fingerprint = ?", arguments: [fingerprint]).map { row in
                var position = ReadingPosition(fingerprint: row["fingerprint"], path: row["path"], page: row["page"], scroll: row["scroll"],
                                               updatedAt: row["updated_at"], mode: (row["mode"] as String?).flatMap(ReadingMode.init(rawValue:)))
                if let other = row["machine"] as String?, other != machine?.rawValue {
                    position.machine = try String.fetchOne(db, sql: "SELECT name FROM state_machine WHERE id = ?", arguments: [other])
                        ?? "another machine"
                }
                return position
            }
        }
    }

    /// Notes that the reference `key` was read at `time` in the document at `path`, whose
    /// content has `fingerprint`.
    public func recordReading(fingerprint: String, path: String, key: String, at time: Double) throws {
        try database.write { db in
            try db.execute(sql: """
                INSERT INTO document_read (fingerprint, cite_key, path, last_read) VALUES (?, ?, ?, ?)
                ON CONFLICT(fingerprint, cite_key) DO UPDATE SET path = excluded.path, last_read = excluded.last_read
                """, arguments: [fingerprint, key, path, time])
            try record(db) { _ in
                .setReadTime(fingerprint: fingerprint, citeKey: key.lowercased(), readAt: Int64((time * 1000).rounded()))
            }
        }
    }

    /// When each reference of `library` was last read, by address: a reference counts as read
    /// when one of its PDFs was read as it (the same path, or the same content, as when a copy
    /// was moved or downloaded again), whatever set of files was open then; and the history
    /// kept per set of files before (`reading`) counts for every file of its set.
    /// `localPath` says where a linked file is on this machine (nil: not here); `fingerprint`
    /// works out a PDF's fingerprint (only for PDFs whose key was read elsewhere).
    public func lastRead(of library: Library, localPath: (LinkedFile) -> String?,
                         fingerprint: (String) -> String?) throws -> [String: Double] {
        let (documents, legacy) = try database.read { db in
            (try Row.fetchAll(db, sql: "SELECT fingerprint, cite_key, path, last_read FROM document_read"),
             try Row.fetchAll(db, sql: "SELECT library, key, last_read FROM reading"))
        }
        // Before: per set of files opened together (paths joined by newlines), by address.
        var legacyTimes: [String: [String: Double]] = [:]
        for row in legacy {
            let set: String = row["library"]
            let key: String = row["key"]
            let time: Double = row["last_read"]
            for file in set.split(separator: "\n") { legacyTimes[String(file), default: [:]][key] = max(time, legacyTimes[String(file)]?[key] ?? 0) }
        }
        var byKey: [String: [(fingerprint: String, path: String, time: Double)]] = [:]
        for row in documents {
            let key: String = row["cite_key"]
            byKey[key.lowercased(), default: []].append((row["fingerprint"], row["path"], row["last_read"]))
        }
        var times: [String: Double] = [:]
        for entry in library.entries {
            var time = legacyTimes[entry.source.path]?[entry.address]
            if let read = byKey[entry.key.lowercased()] {
                for file in entry.links.files where file.isPDF {
                    guard let local = localPath(file) else { continue }
                    var found = read.filter { $0.path == local || $0.path == file.path }
                    if found.isEmpty, let print = fingerprint(local) { found = read.filter { $0.fingerprint == print } }
                    if let latest = found.map(\.time).max() { time = max(time ?? 0, latest) }
                }
            }
            if let time { times[entry.address] = time }
        }
        return times
    }
}
