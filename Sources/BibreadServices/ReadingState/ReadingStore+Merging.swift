import BibModel
import BibreadValues
import Foundation
import GRDB
import ReadingStateSync

/// Merging other machines' operations into the store: each merge is one transaction that adds
/// the new operations, rebuilds the merged state from every operation kept
/// (`ReadingStateReplica`) and writes what it comes to into the tables the reader reads
/// (positions, read times, the bookmark tree, page notes).
extension ReadingStore {
    /// This machine's id in the shared reading state (nil when its id file cannot be read).
    public var machineID: MachineID? { machine }

    /// The state files of `remote` merged here, by path, with the version each was.
    public func mergedStateFiles(remote: String) throws -> [String: String] {
        try database.read { db in
            var result: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, version FROM state_remote_file WHERE remote = ?", arguments: [remote]) {
                result[row["path"]] = row["version"]
            }
            return result
        }
    }

    /// This machine's operations not yet in a log on `remote`, oldest first (its clock only goes
    /// forward: those after the last one a log there holds).
    public func pendingOperations(remote: String) throws -> [StateOperation] {
        guard let machine else { return [] }
        return try database.read { db in
            let through = try String.fetchOne(db, sql: "SELECT through FROM state_upload WHERE remote = ?", arguments: [remote]) ?? ""
            return try Self.decode(try String.fetchAll(db, sql: """
                SELECT body FROM state_operation WHERE sort_key > ? AND machine = ? ORDER BY sort_key
                """, arguments: [through, machine.rawValue]))
        }
    }

    /// How many changes made here are not in a log on `remote` yet (this machine's name alone
    /// is not a change: it is shared with the first one).
    public func unsharedChangeCount(remote: String) throws -> Int {
        try pendingOperations(remote: remote).filter(\.isChange).count
    }

    /// Every operation of this machine kept here, oldest first: what a compacted log holds.
    public func ownOperations() throws -> [StateOperation] {
        guard let machine else { return [] }
        return try database.read { db in
            try Self.decode(try String.fetchAll(db, sql: "SELECT body FROM state_operation WHERE machine = ? ORDER BY sort_key",
                                                arguments: [machine.rawValue]))
        }
    }

    /// Notes that `operations` (this machine's, up to its latest) are in the log file `path` of
    /// `remote` (now version `version`), and that the files `removed` are gone from it.
    public func noteUploaded(_ operations: [StateOperation], file path: String, version: String, remote: String,
                             removed: [String] = []) throws {
        try durableWrite { db in
            for chunk in operations.map(\.timestamp.sortKey).chunked(into: 500) {
                try db.execute(sql: "UPDATE state_operation SET uploaded = 1 WHERE sort_key IN (\(chunk.map { _ in "?" }.joined(separator: ",")))",
                               arguments: StatementArguments(chunk))
            }
            if let latest = operations.map(\.timestamp).max() { try Self.noteUploaded(db, through: latest, remote: remote) }
            try Self.noteFile(db, remote: remote, path: path, version: version)
            for gone in removed {
                try db.execute(sql: "DELETE FROM state_remote_file WHERE remote = ? AND path = ?", arguments: [remote, gone])
            }
        }
    }

    /// Notes that a log on `remote` holds this machine's operations up to `latest`.
    private static func noteUploaded(_ db: Database, through latest: HybridTimestamp, remote: String) throws {
        try db.execute(sql: """
            INSERT INTO state_upload (remote, through) VALUES (?, ?)
            ON CONFLICT(remote) DO UPDATE SET through = MAX(through, excluded.through)
            """, arguments: [remote, latest.sortKey])
    }

    private static func noteFile(_ db: Database, remote: String, path: String, version: String) throws {
        try db.execute(sql: """
            INSERT INTO state_remote_file (remote, path, version) VALUES (?, ?, ?)
            ON CONFLICT(remote, path) DO UPDATE SET version = excluded.version
            """, arguments: [remote, path, version])
    }

    /// Records this machine's name (`device_name`) for the others, when it is not the name they
    /// have; true when it recorded it.
    @discardableResult
    public func publishDeviceName(_ name: String) throws -> Bool {
        guard let machine else { return false }
        return try durableWrite { db in
            let known = try String.fetchOne(db, sql: "SELECT name FROM state_machine WHERE id = ?", arguments: [machine.rawValue])
            let recorded = try Self.operations(db, subject: machine.rawValue, kinds: [.deviceName]).max { $0.timestamp < $1.timestamp }
            if case .setDeviceName(let current)? = recorded?.change, current == name, known == name { return false }
            guard try record(db, { _ in .setDeviceName(name: name) }) != nil else { return false }
            try db.execute(sql: """
                INSERT INTO state_machine (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name
                """, arguments: [machine.rawValue, name])
            return true
        }
    }

    /// The machines known to the shared reading state: their names (nil when they gave none)
    /// and whether they were forgotten.
    public func knownMachines() throws -> [MachineID: (name: String?, forgotten: Bool)] {
        try database.read { db in
            var result: [MachineID: (name: String?, forgotten: Bool)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, name, forgotten FROM state_machine") {
                guard let id = MachineID(rawValue: row["id"]) else { continue }
                result[id] = (row["name"], (row["forgotten"] as Int) != 0)
            }
            return result
        }
    }

    /// Merges the operations of `files` (logs of `remote`, already read and checked) in one
    /// transaction: the operations new here are added, the merged state is rebuilt and written
    /// into the tables the reader reads, and each file is noted as merged at its version.
    /// Operations of forgotten machines are left out.
    public func merge(_ files: [StateLogFile], remote: String) throws -> StateMergeOutcome {
        guard let machine else { throw StateStoreError.noMachine(machineProblem ?? "no machine id") }
        return try durableWrite { db in
            let timer = PhaseTimer()
            try bootstrapIfNeeded(db, machine: machine)
            let forgotten = try Self.forgottenMachines(db)
            // The state of what is kept, to which the new operations are applied: each operation
            // is read from JSON once.
            var state = try Self.replica(db, excluding: forgotten)
            var added = 0
            var latest: HybridTimestamp?
            // In the order of the table's key: each row goes at the end of its index.
            let lines = files.flatMap(\.lines).filter { !forgotten.contains($0.operation.machine) }
                .sorted { $0.operation.timestamp < $1.operation.timestamp }
            for line in lines { state.apply(line.operation) }
            var ownLatest: HybridTimestamp?
            for line in lines {
                let operation = line.operation
                if operation.machine == machine {
                    // This machine's own log, read back (a sync killed after its upload):
                    // those operations are on the remote.
                    try db.execute(sql: "UPDATE state_operation SET uploaded = 1 WHERE sort_key = ?",
                                   arguments: [operation.timestamp.sortKey])
                    ownLatest = max(ownLatest ?? operation.timestamp, operation.timestamp)
                }
                // A position or read time a later write replaced is not kept: it can never count.
                guard state.counts(operation) else { continue }
                if try Self.insert(db, operation, body: line.text, uploaded: true) { added += 1 }
            }
            if let ownLatest { try Self.noteUploaded(db, through: ownLatest, remote: remote) }
            latest = lines.last?.operation.timestamp
            for file in files { try Self.noteFile(db, remote: remote, path: file.path, version: file.version) }
            if let latest {
                var clock = HybridLogicalClock(machine: machine, latest: try Self.latestTimestamp(db))
                // A log dated far ahead was refused before it came here; one just past the
                // tolerance leaves this clock as it is.
                if (try? clock.receive(latest, wallClock: wallClock())) != nil, let now = clock.latest {
                    try db.execute(sql: "UPDATE state_clock SET latest = ? WHERE id = 1", arguments: [now.description])
                }
            }
            timer.lap("state merge: keep \(added) new operations")
            guard added > 0 else { return StateMergeOutcome(newOperations: 0, reports: []) }
            let reports = try rebuild(db, state: state, timer: timer)
            return StateMergeOutcome(newOperations: added, reports: reports)
        }
    }

    /// Drops the machine `forgotten` from the shared state here: what it made that is still to
    /// be seen (bookmarks, positions, read times, note versions) is recorded again as this
    /// machine's, so that nothing visible changes, and its own operations are then left out.
    /// Returns how many operations were recorded again.
    public func forget(machine forgotten: MachineID) throws -> Int {
        guard let machine else { throw StateStoreError.noMachine(machineProblem ?? "no machine id") }
        guard forgotten != machine else { throw StateStoreError.cannotForgetThisMachine }
        return try durableWrite { db in
            try bootstrapIfNeeded(db, machine: machine)
            let state = try Self.replica(db, excluding: [])
            var adopted = 0
            func adopt(_ change: StateOperation.Change) throws {
                if try record(db, { _ in change }) != nil { adopted += 1 }
            }
            for (fingerprint, position) in state.allPositions where position.timestamp.machine == forgotten {
                try adopt(.setPosition(fingerprint: fingerprint, page: position.page, scroll: position.scroll))
            }
            for (key, read) in state.allReadTimes where read.timestamp.machine == forgotten {
                try adopt(.setReadTime(fingerprint: key.fingerprint, citeKey: key.citeKey, readAt: read.readAt))
            }
            for node in state.nodes {
                let seen = state.observed(node: node.id)
                guard seen.adds.contains(where: { $0.machine == forgotten }) || seen.placement?.machine == forgotten else { continue }
                try adopt(.addNode(id: node.id, kind: node.kind, parent: node.parent, position: node.position, name: node.name,
                                   target: node.target))
            }
            for (page, versions) in state.allNotes {
                for version in versions where version.timestamp.machine == forgotten {
                    try adopt(.setNote(citeKey: page.citeKey, page: page.page, text: version.text, supersedes: [version.timestamp]))
                }
            }
            try db.execute(sql: """
                INSERT INTO state_machine (id, forgotten) VALUES (?, 1) ON CONFLICT(id) DO UPDATE SET forgotten = 1
                """, arguments: [forgotten.rawValue])
            try db.execute(sql: "DELETE FROM state_operation WHERE machine = ?", arguments: [forgotten.rawValue])
            _ = try rebuild(db, state: try Self.replica(db, excluding: [forgotten]))
            return adopted
        }
    }

    /// The machines forgotten here.
    static func forgottenMachines(_ db: Database) throws -> Set<MachineID> {
        Set(try String.fetchAll(db, sql: "SELECT id FROM state_machine WHERE forgotten = 1").compactMap(MachineID.init(rawValue:)))
    }

    /// The merged state of every operation kept (but those of `excluding`).
    static func replica(_ db: Database, excluding: Set<MachineID>) throws -> ReadingStateReplica {
        var state = ReadingStateReplica()
        let cursor = try String.fetchCursor(db, sql: "SELECT body FROM state_operation")
        var batch: [String] = []
        while let body = try cursor.next() {
            batch.append(body)
            if batch.count == 10_000 {
                state.apply(contentsOf: try decode(batch).filter { !excluding.contains($0.machine) })
                batch.removeAll(keepingCapacity: true)
            }
        }
        state.apply(contentsOf: try decode(batch).filter { !excluding.contains($0.machine) })
        return state
    }

    /// Operations from their kept bodies (one JSON line each).
    static func decode(_ bodies: [String]) throws -> [StateOperation] {
        guard !bodies.isEmpty else { return [] }
        var data = Data()
        for body in bodies {
            data.append(contentsOf: body.utf8)
            data.append(UInt8(ascii: "\n"))
        }
        do {
            return try StateLog.decode(data)
        } catch {
            throw StateStoreError.damaged("\(error)")
        }
    }

    /// Writes the merged state (of every operation kept) into the reader's tables; drops the register writes that can no longer count; returns what the merge
    /// decided that was not said before, in words.
    private func rebuild(_ db: Database, state: ReadingStateReplica, timer: PhaseTimer = PhaseTimer()) throws -> [String] {
        var names: [MachineID: String] = [:]
        for (id, name) in state.allDeviceNames {
            names[id] = name
            try db.execute(sql: "INSERT INTO state_machine (id, name) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name",
                           arguments: [id.rawValue, name])
        }
        try StateMaterializer(db: db, state: state, names: names, thisMachine: machine).write()
        timer.lap("state merge: write the merged state")
        // A register's earlier writes never count again: only its latest is kept.
        try db.execute(sql: """
            DELETE FROM state_operation WHERE sort_key IN (
                SELECT sort_key FROM (
                    SELECT sort_key, ROW_NUMBER() OVER (PARTITION BY subject, kind ORDER BY sort_key DESC) AS newest
                    FROM state_operation WHERE kind IN (\(OperationKind.registers.map { "'\($0.rawValue)'" }.joined(separator: ",")))
                ) WHERE newest > 1)
            """)
        timer.lap("state merge: drop the register writes that no longer count")
        var told: [String] = []
        for report in state.reports {
            let text: String
            switch report {
            case let .movedNodeWasDeleted(_, name, mover):
                text = "\"\(name)\" was moved on \(names[mover] ?? "another machine") but deleted on another machine: it stays deleted"
            case let .noteHasVersions(citeKey, page, count):
                text = "the note on page \(page) of \(citeKey) was edited on several machines: \(count) versions kept, shown one after the other until you edit it"
            }
            try db.execute(sql: "INSERT INTO state_report (text) VALUES (?) ON CONFLICT(text) DO NOTHING", arguments: [text])
            if db.changesCount > 0 { told.append(text) }
        }
        timer.lap("state merge: reports")
        return told
    }
}

/// A state log file read from a remote: its path there, its version, and its operations
/// (read and checked by `StateLog`).
public struct StateLogFile: Sendable {
    public let path: String
    public let version: String
    /// Its lines, read and checked (`StateLog.decodeLines`).
    public let lines: [StateLogLine]

    /// A file of `lines` as read.
    public init(path: String, version: String, lines: [StateLogLine]) {
        self.path = path
        self.version = version
        self.lines = lines
    }

    /// A file of `operations` (their lines made from them).
    public init(path: String, version: String, operations: [StateOperation]) {
        self.path = path
        self.version = version
        lines = operations.map { StateLogLine(operation: $0, text: String(decoding: StateLog.encode([$0]).dropLast(), as: UTF8.self)) }
    }

    /// Its operations.
    public var operations: [StateOperation] { lines.map(\.operation) }
}

/// What a merge of other machines' logs did.
public struct StateMergeOutcome: Sendable, Equatable {
    /// How many operations were new here.
    public let newOperations: Int
    /// What the merge decided that the user should hear, not said before.
    public let reports: [String]
}

/// The shared reading state cannot be changed.
public enum StateStoreError: Error, CustomStringConvertible, Equatable {
    /// This machine has no id (its file is damaged).
    case noMachine(String)
    /// The operations kept in state.sqlite cannot be read.
    case damaged(String)
    /// `state forget` named this machine.
    case cannotForgetThisMachine

    public var description: String {
        switch self {
        case .noMachine(let problem): return "this machine has no id for the shared reading state: \(problem)"
        case .damaged(let problem): return "the shared reading state in state.sqlite is damaged: \(problem)"
        case .cannotForgetThisMachine: return "that is this machine: forget it from another one"
        }
    }
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension StateOperation {
    /// Whether this is a change to the reading state, not the machine's name.
    var isChange: Bool {
        if case .setDeviceName = change { return false }
        return true
    }
}
