import BibModel
import Foundation
import GRDB

/// The edits made to a synced library on this machine that its remote does not have yet, and
/// the conflicts a merge left for the user. SQLite, one transaction per edit, synchronous FULL:
/// an edit recorded survives a crash or a power cut, and stays pending until a push has put it
/// on the remote (an interrupted upload leaves it pending).
public final class EditJournal: Sendable {
    private let database: DatabaseQueue

    /// Opens (or creates) the journal at `url`.
    public init(url: URL) throws {
        database = try WALDatabase.open(at: url, migrator: Self.migrator) { db in
            // The user's edits: every commit reaches the disk before it counts.
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE edit (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    file TEXT NOT NULL,
                    address TEXT NOT NULL,
                    field TEXT NOT NULL,
                    before TEXT,
                    after TEXT,
                    made_at REAL NOT NULL,
                    pushed_at REAL
                )
                """)
            try db.execute(sql: """
                CREATE TABLE conflict (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    file TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('field', 'deleted-and-edited')),
                    address TEXT NOT NULL,
                    field TEXT,
                    base TEXT,
                    mine TEXT,
                    theirs TEXT,
                    found_at REAL NOT NULL,
                    resolved_at REAL
                )
                """)
        }
        return migrator
    }

    /// Records the changes of one edit to a reference of `file` (the library file's path on the
    /// remote), in one transaction; returns their ids.
    @discardableResult
    public func record(file: String, address: EntryAddress, changes: [FieldDifference], at time: Double) throws -> [Int64] {
        try database.write { db in
            var ids: [Int64] = []
            for change in changes {
                try db.execute(sql: "INSERT INTO edit (file, address, field, before, after, made_at) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [file, address.text, change.field, change.before, change.after, time])
                ids.append(db.lastInsertedRowID)
            }
            return ids
        }
    }

    /// The edits not pushed yet, oldest first (of `file` only, when given).
    public func pending(file: String? = nil) throws -> [JournalEdit] {
        try database.read { db in
            let rows: [Row]
            if let file {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM edit WHERE pushed_at IS NULL AND file = ? ORDER BY id", arguments: [file])
            } else {
                rows = try Row.fetchAll(db, sql: "SELECT * FROM edit WHERE pushed_at IS NULL ORDER BY id")
            }
            return rows.map(JournalEdit.init(row:))
        }
    }

    /// How many edits not pushed yet there are to `file` (an edit changes one reference, at one
    /// moment, in one or more fields).
    public func pendingEditCount(file: String) throws -> Int {
        try database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT DISTINCT address, made_at FROM edit WHERE pushed_at IS NULL AND file = ?)",
                             arguments: [file]) ?? 0
        }
    }

    /// Notes that a push put these edits on the remote, and the conflicts its merge found
    /// (`file`'s), in one transaction: either all of it counts or none.
    public func finishPush(of ids: [Int64], conflicts: [MergeConflict], file: String, at time: Double) throws {
        try database.write { db in
            let pushed = try db.makeStatement(sql: "UPDATE edit SET pushed_at = ? WHERE id = ? AND pushed_at IS NULL")
            for id in ids { try pushed.execute(arguments: [time, id]) }
            let found = try db.makeStatement(sql: """
                INSERT INTO conflict (file, kind, address, field, base, mine, theirs, found_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for conflict in conflicts {
                try found.execute(arguments: [file, conflict.kind == .field ? "field" : "deleted-and-edited", conflict.address.text,
                                              conflict.field, conflict.base, conflict.mine, conflict.theirs, time])
            }
        }
    }

    /// The conflicts the user has not resolved yet, oldest first.
    public func openConflicts() throws -> [JournalConflict] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM conflict WHERE resolved_at IS NULL ORDER BY id").map(JournalConflict.init(row:))
        }
    }

    /// Notes that the user resolved a conflict (the chosen value is an edit of its own).
    public func resolve(conflict id: Int64, at time: Double) throws {
        try database.write { db in
            try db.execute(sql: "UPDATE conflict SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL", arguments: [time, id])
        }
    }
}
