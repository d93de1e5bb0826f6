import BibreadValues
import Checksums
import Foundation
import GRDB
import ReadingList
import ReadingStateSync

/// Bookmarks (a tree of folders, bookmarks and notemarks) and page notes, in the state store.
///
/// Each change is one transaction (`durableWrite`: flushed to the disk when it returns), so a
/// list is imported whole or not at all, and killing bibread mid-write leaves the previous state.
extension ReadingStore {
    // MARK: - Reading the tree

    /// The whole tree.
    public func savedBookmarks() throws -> SavedBookmarks {
        try database.read { db in
            // What the tree was read at, so that `changedElsewhere` can tell a later change.
            let version = try Int.fetchOne(db, sql: "PRAGMA data_version")
            bookmarksVersion.withLock { $0 = version }
            return try Self.tree(db)
        }
    }

    /// Whether another connection (another bibread: `bookmarks add` in a shell) wrote to the
    /// store since the tree was last read here. One cheap query (`PRAGMA data_version`, which
    /// changes only with other connections' commits), for the reader's periodic check.
    public func changedElsewhere() throws -> Bool {
        let version = try database.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        return bookmarksVersion.withLock { $0 } != version
    }

    private static func tree(_ db: Database) throws -> SavedBookmarks {
        let rows = try Row.fetchAll(db, sql: "SELECT * FROM bookmark_node ORDER BY parent_id, position, id")
        var childrenOf: [Int64?: [Row]] = [:]
        for row in rows { childrenOf[row["parent_id"] as Int64?, default: []].append(row) }
        var visited = Set<Int64>()
        func build(_ parent: Int64?) -> [SavedNode] {
            (childrenOf[parent] ?? []).compactMap { row in
                let id: Int64 = row["id"]
                guard visited.insert(id).inserted else { return nil }
                let kind = SavedNode.Kind(rawValue: row["kind"]) ?? .notemark
                var reference: PageReference?
                if kind == .bookmark, let key = row["cite_key"] as String?, let page = row["page"] as Int? {
                    reference = PageReference(citeKey: key, library: row["library"], page: page, lastPage: row["last_page"],
                                              printedPage: row["page_label"])
                }
                return SavedNode(id: id, kind: kind, name: row["name"], reference: reference, text: row["text"],
                                 children: kind == .folder ? build(id) : [])
            }
        }
        return SavedBookmarks(nodes: build(nil))
    }

    /// The folder a path of names (`Course/Week 1`) leads to; nil for the empty path (the root).
    public func folder(atPath path: String) throws -> Int64? {
        guard !SavedBookmarks.names(inPath: path).isEmpty else { return nil }
        guard let folder = try savedBookmarks().folder(atPath: path) else { throw BookmarkStoreError.noSuchFolder(path) }
        return folder.id
    }

    // MARK: - Changing the tree

    /// Adds a folder at the end of `parent` (nil: the top level); returns its id.
    @discardableResult
    ///
    /// Two machines that each make a folder of one name in one place without having seen the
    /// other's (`bookmarks add --folder Course` on both, offline) make one folder, filled by
    /// both: its id in the shared state comes from its place and name, unless a node of that id
    /// was ever known here (a folder of that name renamed or deleted: then a new random one).
    public func addFolder(named name: String, in parent: Int64? = nil, at time: Double = Date().timeIntervalSince1970) throws -> Int64 {
        try durableWrite { db in
            let parentID = try parent.flatMap { try Self.uid(db, row: $0) }
            let derived = Self.folderID(named: name, in: parentID)
            let known = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM state_operation WHERE subject = ?)", arguments: [derived.rawValue])
                ?? false
            let taken = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM bookmark_node WHERE uid = ?)", arguments: [derived.rawValue])
                ?? false
            return try insert(db, kind: .folder, name: name, parent: parent, time: time, uid: known || taken ? NodeID.random() : derived)
        }
    }

    /// The id a folder named `name` in `parent` (nil: the top level) gets on every machine.
    static func folderID(named name: String, in parent: NodeID?) -> NodeID {
        let digest = SHA256.hex(of: Array("folder\n\(parent?.rawValue ?? "")\n\(name)".utf8))
        return NodeID(rawValue: String(digest.prefix(32))) ?? NodeID.random()
    }

    /// Adds a bookmark at the end of `parent`; returns its id.
    @discardableResult
    public func addBookmark(named name: String, reference: PageReference, in parent: Int64? = nil,
                            at time: Double = Date().timeIntervalSince1970) throws -> Int64 {
        try durableWrite { db in try insert(db, kind: .bookmark, name: name, reference: reference, parent: parent, time: time) }
    }

    /// Adds a notemark at the end of `parent`; returns its id.
    @discardableResult
    public func addNotemark(named name: String, text: String, in parent: Int64? = nil,
                            at time: Double = Date().timeIntervalSince1970) throws -> Int64 {
        try durableWrite { db in try insert(db, kind: .notemark, name: name, text: text, parent: parent, time: time) }
    }

    /// Renames a node.
    public func rename(node id: Int64, to name: String) throws {
        try durableWrite { db in
            try db.execute(sql: "UPDATE bookmark_node SET name = ? WHERE id = ?", arguments: [name, id])
            if db.changesCount == 0 { throw BookmarkStoreError.noSuchNode(id) }
            try recordRename(db, row: id, name: name)
        }
    }

    /// Moves a node to the end of `folder` (nil: the top level), its contents with it.
    public func move(node id: Int64, into folder: Int64?) throws {
        try durableWrite { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM bookmark_node WHERE id = ?", arguments: [id]) else {
                throw BookmarkStoreError.noSuchNode(id)
            }
            // Not into itself, nor into a folder it holds: walk up from the target.
            var above = folder
            while let current = above {
                if current == id { throw BookmarkStoreError.folderIntoItself(name) }
                above = try Int64?.fetchOne(db, sql: "SELECT parent_id FROM bookmark_node WHERE id = ?", arguments: [current]) ?? nil
            }
            let position = try Self.endPosition(db, in: folder)
            try db.execute(sql: "UPDATE bookmark_node SET parent_id = ?, position = ? WHERE id = ?", arguments: [folder, position, id])
            try recordMove(db, row: id, into: folder)
        }
    }

    /// Deletes a node, and a folder's contents with it (page notes stay: they belong to pages).
    public func delete(node id: Int64) throws {
        try durableWrite { db in
            // The node and everything under it are removed for every machine.
            let removed = try Self.subtreeUIDs(db, row: id)
            try db.execute(sql: "DELETE FROM bookmark_node WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw BookmarkStoreError.noSuchNode(id) }
            try recordRemoval(db, uids: removed)
        }
    }

    private func insert(_ db: Database, kind: SavedNode.Kind, name: String, reference: PageReference? = nil,
                        text: String? = nil, parent: Int64?, time: Double, uid: NodeID = NodeID.random()) throws -> Int64 {
        let position = try Self.endPosition(db, in: parent)
        try db.execute(sql: """
            INSERT INTO bookmark_node (parent_id, position, kind, name, cite_key, library, page, last_page, page_label, text, created_at, uid)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [parent, position, kind.rawValue, name, reference?.citeKey, reference?.library, reference?.page,
                             reference?.lastPage, reference?.printedPage, text, time, uid.rawValue])
        let row = db.lastInsertedRowID
        let payload: NodePayload? = switch kind {
        case .bookmark: reference.map(NodePayload.init(reference:))
        case .notemark: NodePayload(text: text ?? "")
        case .folder: nil
        }
        if try !recordAdd(db, uid: uid, kind: NodeKind(rawValue: kind.rawValue) ?? .notemark, parent: parent, name: name, payload: payload) {
            // Not shared (no machine id, or a notemark too long for the log): this machine's only.
            try db.execute(sql: "UPDATE bookmark_node SET uid = NULL WHERE id = ?", arguments: [row])
        }
        return row
    }

    /// The position after the last child of `folder` (nil: the top level), which must be a folder.
    private static func endPosition(_ db: Database, in folder: Int64?) throws -> Int {
        if let folder {
            let kind = try String.fetchOne(db, sql: "SELECT kind FROM bookmark_node WHERE id = ?", arguments: [folder])
            guard kind == SavedNode.Kind.folder.rawValue else { throw BookmarkStoreError.noSuchNode(folder) }
        }
        return try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), -1) + 1 FROM bookmark_node WHERE parent_id IS ?",
                                arguments: [folder]) ?? 0
    }

    // MARK: - Import and export

    /// Imports a list as a new top-level folder named after it (`name (2)` when the name is
    /// taken); its page notes are appended to the user's notes when `includeNotes`. All or
    /// nothing: one transaction.
    public func importList(_ list: ReadingList, fallbackName: String, includeNotes: Bool,
                           at time: Double = Date().timeIntervalSince1970) throws -> ImportSummary {
        try durableWrite { db in
            let wanted = list.root.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? fallbackName : list.root.name
            let taken = Set(try String.fetchAll(db, sql: "SELECT name FROM bookmark_node WHERE parent_id IS NULL AND kind = 'folder'"))
            var name = wanted
            var suffix = 2
            while taken.contains(name) {
                name = "\(wanted) (\(suffix))"
                suffix += 1
            }
            let folderID = try insert(db, kind: .folder, name: name, parent: nil, time: time)
            var counts = (bookmarks: 0, folders: 0, notemarks: 0, notesAdded: 0, notesThere: 0)
            func add(_ children: [BookmarkNode], into parent: Int64) throws {
                for child in children {
                    switch child {
                    case .folder(let folder):
                        counts.folders += 1
                        try add(folder.children, into: try insert(db, kind: .folder, name: folder.name, parent: parent, time: time))
                    case .notemark(let notemark):
                        counts.notemarks += 1
                        _ = try insert(db, kind: .notemark, name: notemark.name, text: notemark.text, parent: parent, time: time)
                    case .bookmark(let bookmark):
                        counts.bookmarks += 1
                        _ = try insert(db, kind: .bookmark, name: bookmark.name, reference: bookmark.reference, parent: parent, time: time)
                        guard includeNotes && list.includesPageNotes else { continue }
                        for (offset, note) in bookmark.notes.enumerated() where !note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                            let page = bookmark.reference.page + offset
                            if try appendNote(db, citeKey: bookmark.reference.citeKey, page: page, text: note, time: time) {
                                counts.notesAdded += 1
                            } else {
                                counts.notesThere += 1
                            }
                        }
                    }
                }
            }
            try add(list.root.children, into: folderID)
            return ImportSummary(folderID: folderID, folderName: name, bookmarks: counts.bookmarks, folders: counts.folders,
                                 notemarks: counts.notemarks, notesAdded: counts.notesAdded, notesAlreadyThere: counts.notesThere)
        }
    }

    /// Appends `text` to a page's note, after a blank line; false when the note already holds it.
    private func appendNote(_ db: Database, citeKey: String, page: Int, text: String, time: Double) throws -> Bool {
        let existing = try String.fetchOne(db, sql: "SELECT text FROM page_note WHERE cite_key = ? AND page = ?", arguments: [citeKey, page])
        if let existing, existing.contains(text) { return false }
        let combined = existing.map { $0 + "\n\n" + text } ?? text
        try setNote(db, citeKey: citeKey, page: page, text: combined, time: time)
        return true
    }

    /// The tree, or one folder of it, as a list to share; with the bookmarked pages' notes when
    /// `includeNotes`.
    public func readingList(folder id: Int64?, includeNotes: Bool) throws -> ReadingList {
        try database.read { db in
            let tree = try Self.tree(db)
            let root: (name: String, children: [SavedNode])
            if let id {
                guard let node = tree.node(id: id), node.kind == .folder else { throw BookmarkStoreError.noSuchNode(id) }
                root = (node.name, node.children)
            } else {
                root = ("Bookmarks", tree.nodes)
            }
            var notes: [String: [Int: String]] = [:]
            if includeNotes {
                for row in try Row.fetchAll(db, sql: "SELECT cite_key, page, text FROM page_note") {
                    notes[(row["cite_key"] as String).lowercased(), default: [:]][row["page"]] = row["text"]
                }
            }
            var anyNotes = false
            func convert(_ nodes: [SavedNode]) -> [BookmarkNode] {
                nodes.map { node in
                    switch node.kind {
                    case .folder:
                        return .folder(BookmarkFolder(name: node.name, children: convert(node.children)))
                    case .notemark:
                        return .notemark(Notemark(name: node.name, text: node.text ?? ""))
                    case .bookmark:
                        let reference = node.reference ?? PageReference(citeKey: "", page: 1)
                        var pageNotes = reference.pages.map { notes[reference.citeKey.lowercased()]?[$0] ?? "" }
                        while pageNotes.last == "" { pageNotes.removeLast() }
                        if !pageNotes.isEmpty { anyNotes = true }
                        return .bookmark(Bookmark(name: node.name, reference: reference, notes: pageNotes))
                    }
                }
            }
            let children = convert(root.children)
            return ReadingList(root: BookmarkFolder(name: root.name, children: children), includesPageNotes: includeNotes && anyNotes)
        }
    }

    // MARK: - Page notes

    /// The note on a page of a paper, if any.
    public func note(citeKey: String, page: Int) throws -> String? {
        try database.read { db in
            try String.fetchOne(db, sql: "SELECT text FROM page_note WHERE cite_key = ? AND page = ?", arguments: [citeKey, page])
        }
    }

    /// Every page note of a paper, by page.
    public func notes(citeKey: String) throws -> [Int: String] {
        try database.read { db in
            var result: [Int: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT page, text FROM page_note WHERE cite_key = ?", arguments: [citeKey]) {
                result[row["page"]] = row["text"]
            }
            return result
        }
    }

    /// Sets a page's note; empty text (after trimming) deletes it.
    public func setNote(citeKey: String, page: Int, text: String, at time: Double = Date().timeIntervalSince1970) throws {
        try durableWrite { db in try setNote(db, citeKey: citeKey, page: page, text: text, time: time) }
    }

    private func setNote(_ db: Database, citeKey: String, page: Int, text: String, time: Double) throws {
        let shared = try recordNote(db, citeKey: citeKey, page: page, text: text)
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            try db.execute(sql: "DELETE FROM page_note WHERE cite_key = ? AND page = ?", arguments: [citeKey, page])
            return
        }
        // A note the shared state cannot carry stays this machine's: a merge leaves it alone.
        try db.execute(sql: """
            INSERT INTO page_note (cite_key, page, text, updated_at, local_only) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(cite_key, page) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at, local_only = excluded.local_only
            """, arguments: [citeKey, page, text, time, machine != nil && !shared])
    }

    /// The number of page notes kept, per lower-cased cite key.
    public func noteCounts() throws -> [String: Int] {
        try database.read { db in
            var result: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT cite_key, COUNT(*) AS n FROM page_note GROUP BY cite_key COLLATE NOCASE") {
                result[(row["cite_key"] as String).lowercased()] = row["n"]
            }
            return result
        }
    }
}
