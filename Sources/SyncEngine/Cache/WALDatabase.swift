import DiskIO
import Foundation
import GRDB

/// Opens the SQLite files SyncEngine keeps (the cache manifest, the edit journal): the folder made
/// if missing, a 5 s busy timeout, WAL mode, `prepare` for what each adds (its `synchronous`
/// level, and more), and the tables `migrator` makes.
enum WALDatabase {
    static func open(at url: URL, migrator: DatabaseMigrator,
                     prepare: @escaping @Sendable (Database) throws -> Void) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try prepare(db)
        }
        return try ExclusiveFileLock.whileSettingUp(database: url) {
            let database = try DatabaseQueue(path: url.path, configuration: configuration)
            try migrator.migrate(database)
            return database
        }
    }
}
