import Foundation
import GRDB
import ReadingStateSync

/// Writes a merged reading state into the tables the reader reads, in the caller's transaction:
/// positions and read times (keeping what only this machine knows: a document's path here, how
/// it is shown), page notes (a note with several versions shows them one after the other, each
/// marked, until it is edited) and the bookmark tree (each node keeps its row, so what the
/// reader holds by row id stays valid).
///
/// The tree's rules, the same on every machine: a node whose parent does not exist (deleted on
/// another machine) or is not a folder is shown at the top level; a cycle made by two moves on
/// two machines is broken at its node with the smallest id, which goes to the top level;
/// siblings are in the order of their position keys, then ids.
struct StateMaterializer {
    let db: Database
    let state: ReadingStateReplica
    let names: [MachineID: String]
    let thisMachine: MachineID?

    func write() throws {
        try writePositions()
        try writeReadTimes()
        try writeNotes()
        try writeTree()
    }

    private func writePositions() throws {
        let statement = try db.cachedStatement(sql: """
                INSERT INTO position (fingerprint, path, page, scroll, updated_at, machine) VALUES (?, '', ?, ?, ?, ?)
                ON CONFLICT(fingerprint) DO UPDATE SET page = excluded.page, scroll = excluded.scroll,
                    updated_at = excluded.updated_at, machine = excluded.machine
                WHERE position.page != excluded.page OR position.scroll != excluded.scroll OR position.machine IS NOT excluded.machine
                """)
        for (fingerprint, position) in state.allPositions {
            try statement.execute(arguments: [fingerprint, position.page, position.scroll, Double(position.timestamp.wallMilliseconds) / 1000,
                                              position.timestamp.machine.rawValue])
        }
    }

    private func writeReadTimes() throws {
        // A document read elsewhere but opened here too gets its path here, so that "Recently
        // read" finds it by path, without reading it to know its content.
        let statement = try db.cachedStatement(sql: """
            INSERT INTO document_read (fingerprint, cite_key, path, last_read)
            VALUES (?, ?, COALESCE((SELECT path FROM position WHERE fingerprint = ?), ''), ?)
            ON CONFLICT(fingerprint, cite_key) DO UPDATE SET last_read = excluded.last_read
            """)
        for (key, read) in state.allReadTimes {
            try statement.execute(arguments: [key.fingerprint, key.citeKey, key.fingerprint, Double(read.readAt) / 1000])
        }
    }

    private func writeNotes() throws {
        // A note the shared state could not carry (too long) stays as this machine has it.
        try db.execute(sql: "DELETE FROM page_note WHERE local_only = 0")
        let statement = try db.cachedStatement(sql: """
            INSERT INTO page_note (cite_key, page, text, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(cite_key, page) DO NOTHING
            """)
        for (page, versions) in state.allNotes {
            guard let last = versions.last else { continue }
            try statement.execute(arguments: [page.citeKey, page.page, text(of: versions), Double(last.timestamp.wallMilliseconds) / 1000])
        }
    }

    /// A note's text: its one version, or every version, each under a line that says whose it is.
    func text(of versions: [NoteVersion]) -> String {
        guard versions.count > 1 else { return versions.first?.text ?? "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return versions.enumerated().map { index, version in
            let date = formatter.string(from: Date(timeIntervalSince1970: Double(version.timestamp.wallMilliseconds) / 1000))
            // Named the same on every machine (its device name), so the note reads the same everywhere.
            let machine = names[version.timestamp.machine] ?? (version.timestamp.machine == thisMachine ? "this machine" : "another machine")
            return "[version \(index + 1) of \(versions.count) · \(machine) · \(date)]\n\(version.text)"
        }.joined(separator: "\n\n")
    }

    private func writeTree() throws {
        let nodes = state.nodes
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var parentOf: [NodeID: NodeID] = [:]
        for node in nodes {
            if let parent = node.parent, byID[parent]?.kind == .folder { parentOf[node.id] = parent }
        }
        breakCycles(&parentOf, ids: nodes.map(\.id).sorted())
        var children: [NodeID?: [StateNode]] = [:]
        for node in nodes { children[parentOf[node.id], default: []].append(node) }
        var rowOf: [NodeID: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, uid FROM bookmark_node WHERE uid IS NOT NULL") {
            if let uid = NodeID(rawValue: row["uid"]) { rowOf[uid] = row["id"] }
        }
        let kept = try Set(Int64.fetchAll(db, sql: "SELECT id FROM bookmark_node WHERE uid IS NULL"))
        var written = kept
        // Parents before their children.
        var queue: [NodeID?] = [nil]
        var index = 0
        while index < queue.count {
            let parent = queue[index]
            index += 1
            let siblings = (children[parent] ?? []).sorted { ($0.position, $0.id) < ($1.position, $1.id) }
            for (rank, node) in siblings.enumerated() {
                let row = try write(node, parentRow: parent.flatMap { rowOf[$0] }, rank: rank, existing: rowOf[node.id])
                rowOf[node.id] = row
                written.insert(row)
                if node.kind == .folder { queue.append(node.id) }
            }
        }
        let removal = try db.cachedStatement(sql: "DELETE FROM bookmark_node WHERE id = ?")
        for row in try Int64.fetchAll(db, sql: "SELECT id FROM bookmark_node") where !written.contains(row) {
            try removal.execute(arguments: [row])
        }
    }

    /// Puts every node whose chain of parents loops at the top level: the node of each loop with
    /// the smallest id.
    private func breakCycles(_ parentOf: inout [NodeID: NodeID], ids: [NodeID]) {
        var reachesTop = Set<NodeID>()
        for start in ids {
            var path: [NodeID] = []
            var onPath = Set<NodeID>()
            var current = start
            while !reachesTop.contains(current) {
                if onPath.contains(current), let loopStart = path.firstIndex(of: current) {
                    if let breaker = path[loopStart...].min() { parentOf[breaker] = nil }
                    // Walk again from the start: the chain now ends at the top.
                    path.removeAll()
                    onPath.removeAll()
                    current = start
                    continue
                }
                path.append(current)
                onPath.insert(current)
                guard let parent = parentOf[current] else { break }
                current = parent
            }
            reachesTop.formUnion(path)
        }
    }

    /// Writes one node into its row (a new row when it has none); returns the row.
    private func write(_ node: StateNode, parentRow: Int64?, rank: Int, existing: Int64?) throws -> Int64 {
        let payload = NodePayload(target: node.target)
        let reference = node.kind == .bookmark ? payload?.reference : nil
        // A bookmark without a reference cannot be a row (the table requires one): a notemark
        // that says so keeps its name.
        let kind = node.kind == .bookmark && reference == nil ? NodeKind.notemark : node.kind
        let text = kind == .notemark ? (payload?.text ?? (node.kind == .bookmark ? "(a bookmark this version cannot read)" : "")) : nil
        let values: [(any DatabaseValueConvertible)?] = [parentRow, rank, kind.rawValue, node.name, reference?.citeKey, reference?.library,
                                                          reference?.page, reference?.lastPage, reference?.printedPage, text]
        if let existing {
            try db.cachedStatement(sql: """
                UPDATE bookmark_node SET parent_id = ?, position = ?, kind = ?, name = ?, cite_key = ?, library = ?, page = ?,
                    last_page = ?, page_label = ?, text = ? WHERE id = ?
                """).execute(arguments: StatementArguments(values + [existing]))
            return existing
        }
        try db.cachedStatement(sql: """
            INSERT INTO bookmark_node (parent_id, position, kind, name, cite_key, library, page, last_page, page_label, text, uid, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: StatementArguments(values + [node.id.rawValue, Date().timeIntervalSince1970]))
        return db.lastInsertedRowID
    }
}
