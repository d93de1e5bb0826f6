import Foundation
import GRDB
import PDFText

extension FullTextIndex {
    /// Brings the index in line with `paths`, the PDFs `library` links (local or cached): see
    /// ``update(libraries:workers:priority:progress:isCancelled:)``.
    @discardableResult
    public func update(paths: [String], library: String = "", workers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
                       priority: ExtractionPriority = .normal,
                       progress: (IndexProgress) -> Void = { _ in },
                       isCancelled: () -> Bool = { false }) throws -> IndexSummary {
        try update(libraries: [library: paths], workers: workers, priority: priority, progress: progress, isCancelled: isCancelled)
    }

    /// Brings the index in line with `libraries`: for each library (the absolute path of a .bib
    /// file), the PDFs it links now (local or cached).
    ///
    /// - A path whose size and modification time are unchanged is skipped without opening the
    ///   file, so updating an unchanged library reads no PDF (a file that failed stays failed).
    /// - A new or changed file is fingerprinted (`PDFFingerprint`: its size and 128 KiB of it);
    ///   content already indexed (a copy, a move, a touched file) is only mapped to the path.
    /// - Otherwise its pages are extracted and stored in one transaction per document; a PDF
    ///   that cannot be read (encrypted, damaged) is remembered with its size and modification
    ///   time and not tried again until it changes. (A file that cannot be opened at all, for
    ///   want of permission, is reported in `failed` each time and not remembered.)
    /// - The index is shared by every library on this machine. A path that a library given here
    ///   linked and links no more is forgotten unless another library links it; a path given
    ///   that is gone from disk is forgotten; documents no path maps to any more are deleted:
    ///   their pages drop out of the results. Paths only other libraries link are kept as they
    ///   are (``prune(libraries:)`` drops those no library links any more).
    ///
    /// Text is extracted on `workers` threads at `priority` (`.background` for a reader that
    /// indexes while it is used), each with its own `PDFDocument`; the database is written on
    /// the calling thread.
    /// `progress` is called on the calling thread after the files are planned and after each
    /// document; `isCancelled` too, and every 0.1 s while a long document is being read. When it
    /// says so, the update stops within a few pages: the documents stored stay whole, the
    /// others (the one half read included) are read by the next update.
    ///
    /// Updates run one at a time: a second call waits for the first to finish.
    ///
    /// - Throws: a `DatabaseError` when the index cannot be written; what was committed stays.
    @discardableResult
    public func update(libraries: [String: [String]], workers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount),
                       priority: ExtractionPriority = .normal,
                       progress: (IndexProgress) -> Void = { _ in },
                       isCancelled: () -> Bool = { false }) throws -> IndexSummary {
        updating.lock()
        defer { updating.unlock() }
        let started = Date()
        var summary = IndexSummary()

        guard let plan = try plan(libraries: libraries, summary: &summary, isCancelled: isCancelled) else {
            summary.cancelled = true
            summary.seconds = Date().timeIntervalSince(started)
            return summary
        }
        try database.write { db in
            try link(libraries, db)
            try forget(plan.forgotten, db)
            for file in plan.mapped { try storeFile(file.path, file.status, fingerprint: file.fingerprint, failure: nil, db) }
        }
        summary.removed = plan.forgotten.count
        summary.mapped = plan.mapped.count

        progress(IndexProgress(done: 0, total: plan.toRead.count, pages: 0, currentPath: nil))
        if !plan.toRead.isEmpty {
            try read(plan.toRead, workers: workers, priority: priority, summary: &summary, progress: progress, isCancelled: isCancelled)
        }
        summary.documentsDeleted = try database.write(deleteUnmappedDocuments)
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    // MARK: - Planning

    /// A file to record: its path, status and what it holds.
    struct PlannedFile {
        let path: String
        let status: FileStatus
        let fingerprint: String
    }

    /// What an update has to do, found by looking at the files' status and the index.
    struct UpdatePlan {
        var forgotten: [String] = []
        var mapped: [PlannedFile] = []
        /// Documents to read, each with every path that holds it (the first is read).
        var toRead: [(job: ExtractionPipeline.Job, files: [PlannedFile])] = []
    }

    /// Sorts the paths of `libraries` into unchanged, forgotten, mapped and to read; nil when
    /// cancelled.
    private func plan(libraries: [String: [String]], summary: inout IndexSummary, isCancelled: () -> Bool) throws -> UpdatePlan? {
        struct Known {
            let status: FileStatus
            let fingerprint: String?
            let failed: Bool
        }
        let (known, indexed, linkedBefore, linkedElsewhere) = try database.read { db -> ([String: Known], Set<String>, Set<String>, Set<String>) in
            var known: [String: Known] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT path, size, mtime, fingerprint, failure FROM file") {
                known[row[0]] = Known(status: FileStatus(size: row[1], modified: row[2]), fingerprint: row[3],
                                      failed: row[4] as String? != nil)
            }
            // What the libraries given linked, and what the others link.
            var linkedBefore = Set<String>()
            var linkedElsewhere = Set<String>()
            for row in try Row.fetchAll(db, sql: "SELECT library, path FROM link") {
                let library: String = row[0]
                if libraries[library] != nil { linkedBefore.insert(row[1]) } else { linkedElsewhere.insert(row[1]) }
            }
            return (known, Set(try String.fetchAll(db, sql: "SELECT fingerprint FROM document")), linkedBefore, linkedElsewhere)
        }
        let paths = libraries.keys.sorted().flatMap { libraries[$0] ?? [] }
        var plan = UpdatePlan()
        var seen = Set<String>()
        var readIndex: [String: Int] = [:] // fingerprint → position in plan.toRead
        for path in paths where seen.insert(path).inserted {
            if seen.count % 64 == 0, isCancelled() { return nil }
            guard let status = FileStatus(path: path) else {
                if known[path] != nil { plan.forgotten.append(path) }
                continue
            }
            if let record = known[path], record.status == status,
               record.failed || record.fingerprint.map(indexed.contains) == true {
                summary.unchanged += 1
                continue
            }
            let fingerprint: String
            do {
                fingerprint = try PDFFingerprint.of(path: path)
            } catch {
                // Not remembered: a file that cannot be read now (permissions) may be readable
                // later without changing.
                summary.failed[path] = ExtractionFailure(error).reason
                continue
            }
            let file = PlannedFile(path: path, status: status, fingerprint: fingerprint)
            if indexed.contains(fingerprint) {
                plan.mapped.append(file)
            } else if let position = readIndex[fingerprint] {
                plan.toRead[position].files.append(file)
            } else {
                readIndex[fingerprint] = plan.toRead.count
                plan.toRead.append((ExtractionPipeline.Job(fingerprint: fingerprint, path: path), [file]))
            }
        }
        // A path the libraries given stopped linking, which no other library links.
        plan.forgotten += linkedBefore.filter { known[$0] != nil && !seen.contains($0) && !linkedElsewhere.contains($0) }.sorted()
        return plan
    }

    // MARK: - Reading

    /// Extracts the documents of `toRead` in parallel and stores each as it is finished.
    private func read(_ toRead: [(job: ExtractionPipeline.Job, files: [PlannedFile])], workers: Int,
                      priority: ExtractionPriority,
                      summary: inout IndexSummary, progress: (IndexProgress) -> Void,
                      isCancelled: () -> Bool) throws {
        var filesByFingerprint: [String: [PlannedFile]] = [:]
        for item in toRead { filesByFingerprint[item.job.fingerprint] = item.files }
        let pipeline = ExtractionPipeline(jobs: toRead.map(\.job), workers: workers, priority: priority)
        pipeline.start()
        var done = 0
        do {
            reading: while true {
                let document: ExtractionPipeline.Finished
                switch pipeline.next(waitingAtMost: 0.1) {
                case .done:
                    break reading
                case .waiting:
                    // A long PDF is being read: stop in the middle of it when asked to.
                    if isCancelled() {
                        summary.cancelled = true
                        break reading
                    }
                    continue reading
                case .finished(let finished):
                    document = finished
                }
                let files = filesByFingerprint[document.job.fingerprint] ?? []
                switch document.outcome {
                case .success(let texts):
                    try database.write { db in try storeDocument(document.job.fingerprint, texts: texts, files: files, db) }
                    summary.read += 1
                    summary.pages += texts.count
                case .failure(let failure):
                    try database.write { db in
                        for file in files { try storeFile(file.path, file.status, fingerprint: nil, failure: failure.reason, db) }
                    }
                    for file in files { summary.failed[file.path] = failure.reason }
                }
                done += 1
                progress(IndexProgress(done: done, total: toRead.count, pages: summary.pages, currentPath: document.job.path))
                if done < toRead.count, isCancelled() {
                    summary.cancelled = true
                    break reading
                }
            }
        } catch {
            pipeline.cancel()
            throw error
        }
        pipeline.cancel()
    }

    // MARK: - Writing

    /// Stores a document's pages and the files that hold it (in the caller's transaction).
    func storeDocument(_ fingerprint: String, texts: [String], files: [PlannedFile], _ db: Database) throws {
        // A document stored meanwhile (by another process) is replaced.
        if let old = try Int64.fetchOne(db, sql: "SELECT id FROM document WHERE fingerprint = ?", arguments: [fingerprint]) {
            try deleteDocument(old, db)
        }
        try db.execute(sql: "INSERT INTO document (fingerprint, page_count, indexed_at) VALUES (?, ?, ?)",
                       arguments: [fingerprint, texts.count, Date().timeIntervalSince1970])
        let document = db.lastInsertedRowID
        let insert = try db.cachedStatement(sql: "INSERT INTO page (id, document, number, text) VALUES (?, ?, ?, ?)")
        for (offset, text) in texts.enumerated() where text.contains(where: { !$0.isWhitespace }) {
            let number = offset + 1
            try insert.execute(arguments: [IndexSchema.pageID(document: document, number: number), document, number, text])
        }
        for file in files { try storeFile(file.path, file.status, fingerprint: fingerprint, failure: nil, db) }
    }

    private func storeFile(_ path: String, _ status: FileStatus, fingerprint: String?, failure: String?, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO file (path, size, mtime, fingerprint, failure) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [path, status.size, status.modified, fingerprint, failure])
    }

    /// Records that each library of `libraries` links exactly its paths now.
    private func link(_ libraries: [String: [String]], _ db: Database) throws {
        let unlink = try db.cachedStatement(sql: "DELETE FROM link WHERE library = ?")
        let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO link (library, path) VALUES (?, ?)")
        for (library, paths) in libraries {
            try unlink.execute(arguments: [library])
            for path in paths { try insert.execute(arguments: [library, path]) }
        }
    }

    /// The libraries that link files in the index (each a .bib file's absolute path, as given
    /// to ``update(libraries:workers:priority:progress:isCancelled:)``), sorted.
    public func libraries() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT library FROM link ORDER BY library") }
    }

    /// The paths `library` linked when it was last given to an update, sorted.
    public func paths(linkedBy library: String) throws -> [String] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT path FROM link WHERE library = ? ORDER BY path", arguments: [library])
        }
    }

    /// Drops what no library links any more: `libraries` gives, for each library known to the
    /// index that still exists, the PDFs it links now; a known library it leaves out is gone
    /// and links nothing. Then every file no library links, or gone from disk, is forgotten,
    /// and documents no file maps to are deleted. Reads no PDF.
    ///
    /// - Throws: a `DatabaseError` when the index cannot be written.
    @discardableResult
    public func prune(libraries: [String: [String]]) throws -> IndexSummary {
        updating.lock()
        defer { updating.unlock() }
        let started = Date()
        var summary = IndexSummary()
        let known = try self.libraries()
        let paths = try database.read { db in try String.fetchAll(db, sql: "SELECT path FROM file") }
        try database.write { db in
            for library in known where libraries[library] == nil {
                try db.execute(sql: "DELETE FROM link WHERE library = ?", arguments: [library])
            }
            try link(libraries, db)
            let linked = Set(try String.fetchAll(db, sql: "SELECT DISTINCT path FROM link"))
            let forgotten = paths.filter { !linked.contains($0) || FileStatus(path: $0) == nil }
            try forget(forgotten, db)
            summary.removed = forgotten.count
            summary.documentsDeleted = try deleteUnmappedDocuments(db)
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    private func forget(_ paths: [String], _ db: Database) throws {
        let delete = try db.cachedStatement(sql: "DELETE FROM file WHERE path = ?")
        for path in paths { try delete.execute(arguments: [path]) }
    }

    /// Deletes the documents no file maps to any more, and their pages; returns how many.
    private func deleteUnmappedDocuments(_ db: Database) throws -> Int {
        let orphans = try Int64.fetchAll(db, sql: """
            SELECT id FROM document WHERE fingerprint NOT IN (SELECT fingerprint FROM file WHERE fingerprint IS NOT NULL)
            """)
        for document in orphans { try deleteDocument(document, db) }
        return orphans.count
    }

    /// Deletes a document and its pages (the trigger takes their words out of `page_text`).
    private func deleteDocument(_ document: Int64, _ db: Database) throws {
        let pages = IndexSchema.pageIDs(ofDocument: document)
        try db.execute(sql: "DELETE FROM page WHERE id BETWEEN ? AND ?", arguments: [pages.lowerBound, pages.upperBound])
        try db.execute(sql: "DELETE FROM document WHERE id = ?", arguments: [document])
    }
}
