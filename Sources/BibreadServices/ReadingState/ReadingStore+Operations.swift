import Foundation
import GRDB
import ReadingStateSync

/// Each change to the shared part of the store (positions, read times, bookmarks, page notes)
/// is also recorded as an operation of this machine (`StateOperation`), in the same transaction
/// as the change itself: the operations a sync uploads are exactly the changes made here.
extension ReadingStore {
    /// The kinds of operations, as the `kind` column keeps them.
    enum OperationKind: String {
        case position, readTime, addNode, renameNode, moveNode, removeNode, note, deviceName

        init(_ change: StateOperation.Change) {
            switch change {
            case .setPosition: self = .position
            case .setReadTime: self = .readTime
            case .addNode: self = .addNode
            case .renameNode: self = .renameNode
            case .moveNode: self = .moveNode
            case .removeNode: self = .removeNode
            case .setNote: self = .note
            case .setDeviceName: self = .deviceName
            }
        }

        /// Kinds whose operations are last-writer-wins registers: only the latest of a subject
        /// counts, and the ones before it can be dropped (here, and from a compacted log).
        static let registers: [OperationKind] = [.position, .readTime, .renameNode, .deviceName]
    }

    /// What an operation is about: its register, its node or its page (the `subject` column).
    static func subject(of change: StateOperation.Change, machine: MachineID) -> String {
        switch change {
        case let .setPosition(fingerprint, _, _): return fingerprint
        case let .setReadTime(fingerprint, citeKey, _): return fingerprint + "\n" + citeKey
        case let .addNode(id, _, _, _, _, _), let .renameNode(id, _), let .moveNode(id, _, _), let .removeNode(id, _, _):
            return id.rawValue
        case let .setNote(citeKey, page, _, _): return citeKey + "\n" + String(page)
        case .setDeviceName: return machine.rawValue
        }
    }

    /// A page note's subject: its cite key in lower case (notes belong to the reference).
    static func noteKey(_ citeKey: String) -> String { citeKey.lowercased() }

    /// Records a change of this machine made at the next timestamp of its clock, in the
    /// transaction of `db`; `change` is given the timestamp (a new node's position is made
    /// from it). Operations of a register not yet uploaded are replaced by the new one (a
    /// position saved at every page turn uploads once). Returns the timestamp; nil when nothing
    /// was recorded: this machine has no id (`machineProblem`), or the log format would refuse
    /// the operation (its line over 64 KiB, a value out of range).
    @discardableResult
    func record(_ db: Database, _ change: (HybridTimestamp) throws -> StateOperation.Change?) throws -> HybridTimestamp? {
        guard let machine else { return nil }
        try bootstrapIfNeeded(db, machine: machine)
        var clock = HybridLogicalClock(machine: machine, latest: try Self.latestTimestamp(db))
        let stamp = clock.now(wallClock: wallClock())
        guard let made = try change(stamp) else { return nil }
        let operation = StateOperation(timestamp: stamp, change: made)
        // What the log format would refuse is not recorded (the change stays here only), and
        // replaces nothing recorded before.
        guard operation.problem == nil else { return nil }
        let body = String(decoding: StateLog.encode([operation]).dropLast(), as: UTF8.self)
        guard body.utf8.count <= StateLog.maximumLineBytes else { return nil }
        let kind = OperationKind(made)
        let subject = Self.subject(of: made, machine: machine)
        if OperationKind.registers.contains(kind) {
            try db.execute(sql: "DELETE FROM state_operation WHERE subject = ? AND kind = ? AND machine = ? AND uploaded = 0",
                           arguments: [subject, kind.rawValue, machine.rawValue])
        }
        try Self.insert(db, operation, kind: kind, subject: subject, body: body, uploaded: false)
        try db.execute(sql: "INSERT INTO state_clock (id, latest) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET latest = excluded.latest",
                       arguments: [stamp.description])
        return stamp
    }

    /// Inserts one operation (nothing when it is there already); true when it was new. An
    /// operation the log format would refuse (a name too long to share, a note over 16,000
    /// characters) is not kept: the change stays on this machine only, and the others' logs
    /// keep being read.
    @discardableResult
    static func insert(_ db: Database, _ operation: StateOperation, kind: OperationKind? = nil, subject: String? = nil,
                       body: String? = nil, uploaded: Bool) throws -> Bool {
        // A line read from a log was checked when it was read.
        guard body != nil || operation.problem == nil else { return false }
        let body = body ?? String(decoding: StateLog.encode([operation]).dropLast(), as: UTF8.self)
        // One statement prepared once: a merge keeps 100,000 operations in one go.
        let statement = try db.cachedStatement(sql: """
            INSERT INTO state_operation (sort_key, machine, kind, subject, body, uploaded) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(sort_key) DO NOTHING
            """)
        try statement.execute(arguments: [operation.timestamp.sortKey, operation.machine.rawValue, (kind ?? OperationKind(operation.change)).rawValue,
                                          subject ?? Self.subject(of: operation.change, machine: operation.machine), body, uploaded])
        return db.changesCount > 0
    }

    /// The latest timestamp this machine's clock made or received.
    static func latestTimestamp(_ db: Database) throws -> HybridTimestamp? {
        try String.fetchOne(db, sql: "SELECT latest FROM state_clock WHERE id = 1").flatMap(HybridTimestamp.init)
    }

    /// The operations kept about `subject` (of the given kinds), decoded.
    static func operations(_ db: Database, subject: String, kinds: [OperationKind]) throws -> [StateOperation] {
        let placeholders = kinds.map { _ in "?" }.joined(separator: ", ")
        let bodies = try String.fetchAll(db, sql: "SELECT body FROM state_operation WHERE subject = ? AND kind IN (\(placeholders))",
                                         arguments: StatementArguments([subject] + kinds.map(\.rawValue)))
        return bodies.compactMap { try? StateLog.decode(Data(($0 + "\n").utf8)).first }
    }

    // MARK: - The operations of each change

    /// A node's position among its siblings: its add's or move's timestamp, which sorts after
    /// every timestamp this machine has seen (a new node goes at the end, as here).
    static func positionKey(_ stamp: HybridTimestamp) -> String { stamp.sortKey }

    /// Records the add of a node whose uid is `uid`; false when it cannot be shared (a
    /// notemark's text too long for the log): the caller keeps it on this machine only.
    func recordAdd(_ db: Database, uid: NodeID, kind: NodeKind, parent: Int64?, name: String, payload: NodePayload?) throws -> Bool {
        guard machine != nil else { return false }
        let parentID = try parent.flatMap { try Self.uid(db, row: $0) }
        return try record(db) { stamp in
            .addNode(id: uid, kind: kind, parent: parentID, position: Self.positionKey(stamp), name: SharedText.name(name),
                     target: payload?.target)
        } != nil
    }

    /// Records a node's new name (cleaned and cut as the log takes names).
    func recordRename(_ db: Database, row: Int64, name: String) throws {
        guard let uid = try Self.uid(db, row: row) else { return }
        try record(db) { _ in .renameNode(id: uid, name: SharedText.name(name)) }
    }

    /// Records a node's move to the end of `folder` (nil: the top level).
    func recordMove(_ db: Database, row: Int64, into folder: Int64?) throws {
        guard let uid = try Self.uid(db, row: row) else { return }
        let parent = try folder.flatMap { try Self.uid(db, row: $0) }
        try record(db) { stamp in .moveNode(id: uid, parent: parent, position: Self.positionKey(stamp)) }
    }

    /// Records the removal of the nodes `uids` (a node and what it holds), each with the adds
    /// and the placement this machine has seen of it.
    func recordRemoval(_ db: Database, uids: [NodeID]) throws {
        for uid in uids {
            let seen = ReadingStateReplica(operations: try Self.operations(db, subject: uid.rawValue,
                                                                             kinds: [.addNode, .moveNode, .removeNode, .renameNode]))
            let observed = seen.observed(node: uid)
            try record(db) { _ in .removeNode(id: uid, observedAdds: observed.adds, observedPlacement: observed.placement) }
        }
    }

    /// Records a page note's text (empty: removed), replacing the versions seen here; false when
    /// it cannot be shared (over 16,000 characters, or its line over 64 KiB): the note then stays
    /// on this machine only, and a merge leaves it as it is.
    func recordNote(_ db: Database, citeKey: String, page: Int, text: String) throws -> Bool {
        guard machine != nil else { return false }
        let key = Self.noteKey(citeKey)
        let removed = text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        guard let shared = removed ? "" : SharedText.note(text) else { return false }
        let seen = ReadingStateReplica(operations: try Self.operations(db, subject: key + "\n" + String(page), kinds: [.note]))
        let supersedes = seen.noteVersionsToSupersede(citeKey: key, page: page)
        return try record(db) { _ in .setNote(citeKey: key, page: page, text: shared, supersedes: supersedes) } != nil
    }

    /// The uid of the node in row `row`; nil when it has none.
    static func uid(_ db: Database, row: Int64) throws -> NodeID? {
        try String.fetchOne(db, sql: "SELECT uid FROM bookmark_node WHERE id = ?", arguments: [row]).flatMap(NodeID.init(rawValue:))
    }

    /// The uids of the node in row `row` and of every node under it, the node first.
    static func subtreeUIDs(_ db: Database, row: Int64) throws -> [NodeID] {
        try String.fetchAll(db, sql: """
            WITH RECURSIVE subtree(id) AS (SELECT ? UNION ALL SELECT n.id FROM bookmark_node n JOIN subtree s ON n.parent_id = s.id)
            SELECT uid FROM bookmark_node WHERE id IN subtree AND uid IS NOT NULL
            """, arguments: [row]).compactMap(NodeID.init(rawValue:))
    }

    // MARK: - The state kept before operations were

    /// Records, once, everything the store held before it recorded operations (a store of an
    /// earlier version): each position, read time, node and note becomes an operation of this
    /// machine, dated when it was made, so that it is shared and the later changes on any
    /// machine win over it as they should.
    func bootstrapIfNeeded(_ db: Database, machine: MachineID) throws {
        guard try Self.latestTimestamp(db) == nil else { return }
        var clock = HybridLogicalClock(machine: machine)
        func stamp(at seconds: Double) -> HybridTimestamp {
            // Each at its own time, after the ones before: the clock never goes back.
            clock.now(wallClock: Int64((seconds * 1000).rounded()))
        }
        @discardableResult
        func add(_ change: StateOperation.Change, at stamp: HybridTimestamp) throws -> Bool {
            let operation = StateOperation(timestamp: stamp, change: change)
            guard operation.problem == nil, StateLog.encode([operation]).count <= StateLog.maximumLineBytes else { return false }
            return try Self.insert(db, operation, uploaded: false)
        }
        for row in try Row.fetchAll(db, sql: "SELECT fingerprint, page, scroll, updated_at FROM position ORDER BY updated_at") {
            let page: Int = row["page"]
            let scroll: Double = row["scroll"]
            guard page >= 1, scroll.isFinite else { continue }
            try add(.setPosition(fingerprint: row["fingerprint"], page: page, scroll: min(1, max(0, scroll))), at: stamp(at: row["updated_at"]))
            try db.execute(sql: "UPDATE position SET machine = ? WHERE fingerprint = ?", arguments: [machine.rawValue, row["fingerprint"] as String])
        }
        for row in try Row.fetchAll(db, sql: "SELECT fingerprint, cite_key, last_read FROM document_read ORDER BY last_read") {
            let time: Double = row["last_read"]
            try add(.setReadTime(fingerprint: row["fingerprint"], citeKey: (row["cite_key"] as String).lowercased(),
                                 readAt: Int64((time * 1000).rounded())), at: stamp(at: time))
        }
        // Nodes parents first, each at its place among its siblings.
        let nodes = try Row.fetchAll(db, sql: "SELECT * FROM bookmark_node WHERE uid IS NULL ORDER BY parent_id IS NOT NULL, parent_id, position, id")
        let ids = Set(nodes.map { $0["id"] as Int64 })
        var uidOf: [Int64: NodeID] = [:]
        var pending = nodes.map { (row: $0, parent: ($0["parent_id"] as Int64?).flatMap { ids.contains($0) ? $0 : nil }) }
        while !pending.isEmpty {
            var next: [(row: Row, parent: Int64?)] = []
            for (row, parent) in pending {
                if let parent, uidOf[parent] == nil {
                    next.append((row, parent))
                    continue
                }
                let id: Int64 = row["id"]
                let uid = NodeID.random()
                uidOf[id] = uid
                try db.execute(sql: "UPDATE bookmark_node SET uid = ?, parent_id = ? WHERE id = ?", arguments: [uid.rawValue, parent, id])
                let kind = NodeKind(rawValue: row["kind"]) ?? .notemark
                var payload: NodePayload?
                switch kind {
                case .bookmark:
                    if let key = row["cite_key"] as String?, let page = row["page"] as Int? {
                        payload = NodePayload(reference: .init(citeKey: key, library: row["library"], page: page,
                                                               lastPage: row["last_page"], printedPage: row["page_label"]))
                    }
                case .notemark: payload = NodePayload(text: row["text"] ?? "")
                case .folder: payload = nil
                }
                let made = stamp(at: row["created_at"])
                let shared = try add(.addNode(id: uid, kind: kind, parent: parent.flatMap { uidOf[$0] }, position: Self.positionKey(made),
                                              name: SharedText.name(row["name"]), target: payload?.target), at: made)
                // One the log cannot carry (a notemark's text too long) stays on this machine.
                if !shared { try db.execute(sql: "UPDATE bookmark_node SET uid = NULL WHERE id = ?", arguments: [id]) }
            }
            // Parents that never resolve (a cycle in a damaged store): those nodes go to the top.
            pending = next.count == pending.count ? next.map { ($0.row, nil) } : next
        }
        for row in try Row.fetchAll(db, sql: "SELECT cite_key, page, text, updated_at FROM page_note ORDER BY updated_at") {
            let shared = try SharedText.note(row["text"]).map { text in
                try add(.setNote(citeKey: Self.noteKey(row["cite_key"]), page: row["page"], text: text, supersedes: []),
                        at: stamp(at: row["updated_at"]))
            } ?? false
            if !shared {
                try db.execute(sql: "UPDATE page_note SET local_only = 1 WHERE cite_key = ? AND page = ?",
                               arguments: [row["cite_key"] as String, row["page"] as Int])
            }
        }
        let latest = clock.latest ?? clock.now(wallClock: wallClock())
        try db.execute(sql: "INSERT INTO state_clock (id, latest) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET latest = excluded.latest",
                       arguments: [latest.description])
    }
}
