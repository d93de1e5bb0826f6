import BibModel
import BibreadServices
import Foundation
import FullText
import PDFText
import ReadingList
import SyncEngine

/// Does the work effects ask for (everything that reads the whole library, or a PDF) and
/// reports the results as events, one `perform` for each family of effects. `EffectRunner` runs
/// them where their routes say.
public final class BackgroundWork: @unchecked Sendable {
    public let library: Library
    private let context: GroupContext
    private let lock = NSLock()
    private var groupsByPath: [String: Group] = [:]
    private var lastRead: [String: Double]
    private var documents: [String: OpenDocument] = [:]
    private let pages = PageTextCache(capacity: 256)
    private let store: ReadingStore?
    private let clock: @Sendable () -> Double
    private let remotes: [Remote]
    /// The cancellation of each job (a download, a sync, a reading-list load, indexing).
    let jobs = JobTokens()
    private var fullTextIndex: FullTextIndex?
    private var pdfs: LibraryPDFs?
    /// Where the full-text index is (tests give a folder of their own); nil: no full-text
    /// index, and full-text effects do nothing.
    private let fullTextURL: URL?

    private struct OpenDocument {
        let document: PDFDocument
        let fingerprint: String
    }

    /// Work for `library`; positions and reading times go to `store`.
    public init(library: Library, groups: [Group], store: ReadingStore? = nil,
                lastRead: [String: Double] = [:], now: Date = Date(), remotes: [Remote] = [],
                fullTextURL: URL? = FullTextIndex.defaultURL(),
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.remotes = remotes
        self.fullTextURL = fullTextURL
        self.library = library
        context = GroupContext(library: library, now: now)
        self.store = store
        self.lastRead = lastRead
        self.clock = clock
        register(groups)
    }

    /// Makes groups findable by the paths the groups pane uses (`Parent/Child`).
    public func register(_ groups: [Group]) {
        var paths: [String: Group] = [:]
        func add(_ group: Group, parent: String?) {
            let path = parent.map { "\($0)/\(group.name)" } ?? group.name
            if paths[path] == nil { paths[path] = group }
            for child in group.children { add(child, parent: path) }
        }
        for group in groups { add(group, parent: nil) }
        lock.withLock { groupsByPath.merge(paths) { old, _ in old } }
    }

    /// Performs work over the library, posting its results (several for long work such as counting).
    public func perform(_ effect: LibraryEffect, post: (Event) -> Void) {
        switch effect {
        case .loadFieldGroups:
            let fieldGroups = GroupCatalog.fieldGroups(of: library)
            register(fieldGroups)
            post(.groupsReady(GroupCatalog.savedGroups(of: library) + fieldGroups))
        case .countGroups(let paths):
            var batch: [String: Int] = [:]
            var lastPost = Date()
            for path in paths {
                guard let group = group(at: path), group.unavailableReason == nil else { continue }
                batch[path] = group.members(in: library, context: context).count
                if Date().timeIntervalSince(lastPost) > 0.1 {
                    post(.groupCounts(batch))
                    batch = [:]
                    lastPost = Date()
                }
            }
            if !batch.isEmpty { post(.groupCounts(batch)) }
        case .computeGroupMembers(let path):
            // An unknown path may be a field group that is not loaded yet: `groupsReady` asks again.
            guard let group = group(at: path) else { return }
            post(.groupMembers(path: path, members: group.members(in: library, context: context)))
        case .buildSearchIndex:
            post(.searchIndexReady(SearchIndex(entries: library.entries)))
        case .computeSort(let key):
            post(.sortReady(key, rank: SortOrder.rank(library.entries, by: key, lastRead: lock.withLock { lastRead })))
        case .computeMarks:
            post(.marksReady(library.entries.map(BackgroundWork.marks(of:))))
        }
    }

    /// Performs work on a document being read.
    public func perform(_ effect: DocumentEffect, post: (Event) -> Void) {
        switch effect {
        case .openDocument(let path, let password):
            openDocument(path, password: password, post: post)
        case .extractPage(let path, let page, let mode):
            do {
                post(.pageText(path: path, page: page, mode: mode, text: try text(of: path, page: page, mode: mode)))
            } catch PDFError.missingPage(let page, let claimed, let readable) {
                // It names the page itself: "Page 4 is not in the PDF: …".
                let message = "\(PDFError.missingPage(page: page, claimed: claimed, readable: readable))"
                post(.documentFailed(path: path, message: message.prefix(1).uppercased() + message.dropFirst()))
            } catch {
                post(.documentFailed(path: path, message: "Page \(page): \(error)"))
            }
        case .findInDocument(let path, let query, let fromPage, let forward, let mode, let width):
            let found = find(query, in: path, after: fromPage, forward: forward, mode: mode, width: width)
            post(.searchResult(path: path, query: query, page: found?.page, wrapped: found?.wrapped ?? false))
        }
    }

    /// Writes where the reader is and what was read.
    public func perform(_ effect: ReadingEffect, post: (Event) -> Void) {
        switch effect {
        case .savePosition(let path, let page, let scroll):
            guard let store, let fingerprint = lock.withLock({ documents[path]?.fingerprint }) else { return }
            try? store.save(ReadingPosition(fingerprint: fingerprint, path: path, page: page, scroll: scroll, updatedAt: clock()))
        case .saveReadingMode(let path, let mode):
            guard let store, let fingerprint = lock.withLock({ documents[path]?.fingerprint }) else { return }
            try? store.saveMode(mode, fingerprint: fingerprint, path: path, at: clock())
        case .recordReading(let key):
            let time = clock()
            lock.withLock { lastRead[key] = time }
            // Kept per document (its content and path), so that it counts whatever set of
            // .bib files is open next time.
            if let store, let entry = library.entry(addressedBy: key) {
                for file in entry.links.files where file.isPDF {
                    guard let local = file.localPath else { continue }
                    let fingerprint = (try? PDFFingerprint.of(path: local)) ?? "path:" + local
                    try? store.recordReading(fingerprint: fingerprint, path: local, key: entry.key, at: time)
                }
            }
            post(.readingRecorded(key: key, time: time))
        }
    }

    /// Downloads a file from the library's remote, or syncs it, until `token` is cancelled; a
    /// cancel stops the latest download (or sync), nothing else.
    public func perform(_ effect: SyncEffect, token: CancellationToken, post: (Event) -> Void) {
        switch effect {
        case .fetchFile(let path):
            fetch(path, token: token, post: post)
        case .cancelFetch:
            jobs.cancel(.download)
        case .syncLibrary(let group, let shownGroup):
            syncLibrary(group: group, shownGroup: shownGroup, token: token, post: post)
        case .cancelSync:
            jobs.cancel(.sync)
        }
    }

    /// Loads a reading list (a cancel stops the load under way), or imports one. `post` may be
    /// kept past the call: the download's progress reports through it, and the transfer may
    /// still hold it when the list is in.
    public func perform(_ effect: ReadingListEffect, token: CancellationToken, post: @escaping @Sendable (Event) -> Void) {
        switch effect {
        case .loadReadingList(let source):
            loadReadingList(source, token: token, post: post)
        case .cancelReadingList:
            jobs.cancel(.readingList)
        case .importReadingList(let decoded, let fallbackName, let includeNotes):
            withStore(post: post) { store in
                try importReadingList(decoded, fallbackName: fallbackName, includeNotes: includeNotes, into: store, post: post)
            }
        }
    }

    /// Works with the full-text index (nothing without one: `fullTextURL` nil); indexing stops
    /// between two documents once `token` is cancelled.
    public func perform(_ effect: FullTextEffect, token: CancellationToken, post: (Event) -> Void) {
        guard fullTextURL != nil else { return }
        switch effect {
        case .updateFullTextIndex:
            updateFullTextIndex(token: token, post: post)
        case .searchFullText(let terms):
            searchFullText(terms, post: post)
        case .loadFullTextPages(let terms, let positions):
            do {
                let pages = try FullTextSearch.pages(for: terms, entries: Set(positions), index: try openFullTextIndex(), pdfs: libraryPDFs())
                // Positions without pages get an empty list, so that they are not asked again.
                var all = pages
                for position in positions where all[position] == nil { all[position] = [] }
                post(.fullTextPages(terms: terms, pages: all))
            } catch {
                post(.fullTextFailed(message: "Full-text search: \(ErrorText.plain(error))"))
            }
        }
    }

    // MARK: - Full text

    /// Stops indexing between two documents (the reader is quitting or reloading).
    public func stopIndexing() {
        jobs.cancel(.indexing)
    }

    /// The index, opened on first use.
    private func openFullTextIndex() throws -> FullTextIndex {
        if let index = lock.withLock({ fullTextIndex }) { return index }
        // `perform` does nothing without an index; this only keeps the type honest.
        guard let fullTextURL else { throw CancellationError() }
        let index = try FullTextIndex(url: fullTextURL)
        lock.withLock { fullTextIndex = index }
        return index
    }

    private func libraryPDFs() -> LibraryPDFs {
        if let pdfs = lock.withLock({ pdfs }) { return pdfs }
        let found = LibraryPDFs(library: library)
        lock.withLock { pdfs = found }
        return found
    }

    /// Reads the new and changed PDFs into the index on every core at low priority, posting
    /// progress a few times a second.
    private func updateFullTextIndex(token: CancellationToken, post: (Event) -> Void) {
        let pdfs = libraryPDFs()
        guard !pdfs.paths.isEmpty else { return }
        do {
            let index = try openFullTextIndex()
            var lastPost = Date.distantPast
            // Every core, niced, so that the reader answers first. The index is shared with
            // other libraries: their PDFs stay.
            _ = try index.update(libraries: pdfs.pathsByLibrary, priority: .background, progress: { progress in
                let now = Date()
                guard now.timeIntervalSince(lastPost) > 0.2 || progress.done == progress.total else { return }
                lastPost = now
                post(.indexProgress(done: progress.done, total: progress.total))
            }, isCancelled: { token.isCancelled })
            // Quietly: the status line's "indexing PDFs" going away says it is done; problems
            // with single files are for `bibread index`, which lists them.
            post(.indexFinished(message: nil))
        } catch {
            post(.indexFinished(message: "The full-text index cannot be updated: \(ErrorText.plain(error))"))
        }
    }

    private func searchFullText(_ terms: [FullTextTerm], post: (Event) -> Void) {
        do {
            let results = try FullTextSearch.results(for: terms, index: try openFullTextIndex(), pdfs: libraryPDFs(), pagesFor: [])
            post(.fullTextResults(results))
        } catch {
            post(.fullTextFailed(message: "Full-text search: \(ErrorText.plain(error))"))
        }
    }

    // MARK: - Bookmarks and notes

    /// Reads or writes the bookmark tree and the notes; a write's confirmation comes once it is committed.
    public func perform(_ effect: BookmarkEffect, post: (Event) -> Void) {
        // Without a store (said at start-up) there is nothing to show and nothing is kept: only
        // what the user asked to keep says so.
        let quiet: Bool
        switch effect {
        case .loadBookmarks, .checkBookmarks, .loadNotes: quiet = true
        case .addBookmark, .addBookmarkFolder, .renameBookmarkNode, .deleteBookmarkNode, .moveBookmarkNode, .saveNote: quiet = false
        }
        withStore(quietly: quiet, post: post) { store in
            switch effect {
            case .loadBookmarks:
                post(.bookmarksLoaded(try store.savedBookmarks(), message: nil, select: nil))
            case .checkBookmarks:
                // Another bibread changed the store (a bookmark added from a shell): show it.
                if try store.changedElsewhere() { post(.bookmarksLoaded(try store.savedBookmarks(), message: nil, select: nil)) }
            case .addBookmark(let reference, let name, let folder, let confirmation):
                let id = try store.addBookmark(named: name, reference: reference, in: folder, at: clock())
                post(.bookmarksLoaded(try store.savedBookmarks(), message: confirmation, select: id))
            case .moveBookmarkNode(let id, let folder):
                try store.move(node: id, into: folder)
                let tree = try store.savedBookmarks()
                let place = folder.map { "the folder \(tree.path(of: $0))" } ?? "the top level"
                post(.bookmarksLoaded(tree, message: "Moved '\(tree.node(id: id)?.label ?? "")' into \(place)", select: id))
            case .addBookmarkFolder(let name, let parent):
                let id = try store.addFolder(named: name, in: parent, at: clock())
                post(.bookmarksLoaded(try store.savedBookmarks(), message: "Made the folder \(name)", select: id))
            case .renameBookmarkNode(let id, let name):
                try store.rename(node: id, to: name)
                post(.bookmarksLoaded(try store.savedBookmarks(), message: "Renamed to \(name)", select: id))
            case .deleteBookmarkNode(let id, let confirmation):
                try store.delete(node: id)
                post(.bookmarksLoaded(try store.savedBookmarks(), message: confirmation, select: nil))
            case .loadNotes(let key):
                post(.notesLoaded(key: key, notes: try store.notes(citeKey: key), message: nil))
            case .saveNote(let key, let page, let text, let confirmation):
                try store.setNote(citeKey: key, page: page, text: text, at: clock())
                post(.notesLoaded(key: key, notes: try store.notes(citeKey: key), message: confirmation))
            }
        }
    }

    /// Runs `body` with the store; says when there is none (unless `quietly`) and when it fails.
    private func withStore(quietly: Bool = false, post: (Event) -> Void, _ body: (ReadingStore) throws -> Void) {
        guard let store else {
            if !quietly { post(.bookmarkFailed(message: "Bookmarks and notes cannot be kept: the state store could not be opened")) }
            return
        }
        do {
            try body(store)
        } catch {
            post(.bookmarkFailed(message: "Bookmarks: \(ErrorText.plain(error))"))
        }
    }

    private func importReadingList(_ decoded: DecodedReadingList, fallbackName: String, includeNotes: Bool, into store: ReadingStore,
                                   post: (Event) -> Void) throws {
        let summary = try store.importList(decoded.list, fallbackName: fallbackName, includeNotes: includeNotes, at: clock())
        var text = "Imported '\(summary.folderName)': \(summary.bookmarks) bookmark\(summary.bookmarks == 1 ? "" : "s")"
        if includeNotes {
            text += ", \(summary.notesAdded) page note\(summary.notesAdded == 1 ? "" : "s")"
            if summary.notesAlreadyThere > 0 { text += " (\(summary.notesAlreadyThere) already in your notes)" }
        }
        let missing = Set(decoded.list.bookmarks.map(\.reference.citeKey).filter { library.entries(withKey: $0).isEmpty })
        if !missing.isEmpty { text += "; \(missing.count) cite key\(missing.count == 1 ? " is" : "s are") not in this library" }
        post(.bookmarksLoaded(try store.savedBookmarks(), message: text, select: summary.folderID))
    }

    private func loadReadingList(_ source: String, token: CancellationToken, post: @escaping @Sendable (Event) -> Void) {
        let kind = ReadingListSource(source)
        do {
            let decoded = try ReadingListLoader.load(kind, progress: { bytes, _ in post(.readingListProgress(bytes: bytes)) },
                                                     isCancelled: { token.isCancelled })
            post(.readingListLoaded(source: source, fallbackName: kind.fallbackName, decoded))
        } catch let error as ReadingListLoadError {
            if error.isCancellation { return }
            var text = "\(error)"
            if case .list(let where_, .invalid(let problems)) = error, let first = problems.first {
                text = "\(where_): \(problems.count) error\(problems.count == 1 ? "" : "s"), nothing imported: \(first)"
                    + (problems.count > 1 ? " (bibread bookmarks validate lists them all)" : "")
            }
            post(.readingListFailed(message: text))
        } catch {
            post(.readingListFailed(message: "\(error)"))
        }
    }

    // MARK: - Fetching from the remote

    /// The remote this library was synced from (config.toml's definition first).
    private func libraryRemote() -> (RemoteLocations, Remote)? {
        guard let locations = library.files.lazy.compactMap({ RemoteLocations.owning($0.source.path) }).first,
              let remote = remotes.first(where: { $0.name == locations.name }) ?? locations.savedRemote() else { return nil }
        return (locations, remote)
    }

    private func syncLibrary(group: String?, shownGroup: String, token: CancellationToken, post: (Event) -> Void) {
        guard let (locations, remote) = libraryRemote() else {
            post(.syncFinished(summary: "This library was not synced from a remote: use bibread sync URL first", libraryChanged: false, failed: true))
            return
        }
        var options = SyncOptions()
        options.selection = SyncSelection(groups: group.map { [$0] } ?? [])
        options.documentCheck = { PDFDocument.openingProblem(path: $0) }
        var changed = false
        var refused: String?
        do {
            let session = try CurlSession()
            let summary = try Syncer(remote: remote, locations: locations, transport: try TransportFactory.make(remote, session: session), session: session)
                .run(options, events: { event in
                    switch event {
                    case .progress(let progress):
                        post(.syncProgress(done: progress.doneBytes, total: progress.totalBytes, file: progress.path))
                    case .library(_, .updated):
                        changed = true
                    case .library(let file, .rejected(let reason, _)):
                        refused = refused ?? "\(file) was not replaced: \(reason)"
                    case .waiting(let remote, let holder):
                        post(.remoteBusy(message: Self.waitingMessage(remote: remote, holder: holder)))
                    default:
                        break
                    }
                }, isCancelled: { token.isCancelled })
            // PDFs this sync found missing on the remote are no longer "remote only".
            locations.registerAbsentFiles()
            let text = Self.syncMessage(summary, remote: remote.name, group: group, shownGroup: shownGroup, refused: refused)
            post(.syncFinished(summary: text, libraryChanged: changed, failed: !summary.succeeded && !summary.cancelled))
        } catch SyncLockError.stoppedWaiting {
            post(.syncFinished(summary: "Stopped waiting for the other sync of '\(remote.name)'; nothing was changed",
                               libraryChanged: false, failed: false))
        } catch {
            post(.syncFinished(summary: "Sync of '\(remote.name)' failed: \(ErrorText.plain(error))", libraryChanged: false, failed: true))
        }
    }

    /// What the status line says while a sync or download waits for another sync of the remote.
    static func waitingMessage(remote: String, holder: SyncLockHolder) -> String {
        "Another sync of '\(remote)' is running (\(holder)); waiting…"
    }

    /// What an F5 sync says: what it synced and, when it chose no PDF, why; the first failure
    /// and the command that shows them all.
    static func syncMessage(_ summary: SyncSummary, remote: String, group: String?, shownGroup: String, refused: String?) -> String {
        let verb = summary.cancelled ? "Stopped syncing" : "Synced"
        var text: String
        if let group {
            text = "\(verb) '\(remote)': \(summary.downloaded) downloaded, \(summary.current) already here"
            if let unknown = summary.unknownNames.first {
                text += "; \(unknown)"
            } else if summary.selected.isEmpty && !summary.cancelled {
                text += " (no reference of \(group) links a PDF on the remote)"
            }
        } else {
            // F5 fetches the PDFs of the group shown, and a built-in group is not one to sync.
            text = "\(verb) '\(remote)', no PDFs: \(shownGroup) is not a synced group (pick one, or sync \(remote) --all-pdfs)"
        }
        if let first = summary.failed.first {
            text += "; \(summary.failed.count) failed, first \(first): \(summary.failureReasons[first] ?? "it failed")"
            if summary.failed.count > 1 { text += " (all: bibread sync \(remote)\(group.map { " --group '\($0)'" } ?? ""))" }
        }
        if let refused { text += "; \(refused)" }
        return text
    }

    private func fetch(_ path: String, token: CancellationToken, post: (Event) -> Void) {
        guard let (locations, remote) = libraryRemote() else {
            post(.fetchFailed(path: path, message: "This library was not synced from a remote bibread knows; run bibread sync first"))
            return
        }
        guard let remotePath = locations.remotePath(ofLinked: path, mapping: remote.pathMapping) else {
            post(.fetchFailed(path: path, message: "\(path) is outside the remote '\(remote.name)' (add a path mapping for it)"))
            return
        }
        do {
            let session = try CurlSession()
            let syncer = Syncer(remote: remote, locations: locations, transport: try TransportFactory.make(remote, session: session), session: session)
            var options = SyncOptions()
            options.documentCheck = { PDFDocument.openingProblem(path: $0) }
            let local = try syncer.fetch(remotePath, options: options, events: { event in
                switch event {
                case .progress(let progress):
                    post(.fetchProgress(path: path, bytes: progress.fileBytes, total: progress.fileTotal))
                case .waiting(let remote, let holder):
                    post(.remoteBusy(message: Self.waitingMessage(remote: remote, holder: holder)))
                default:
                    break
                }
            }, isCancelled: { token.isCancelled })
            if let local { post(.fetchFinished(path: path, local: local.path)) }
        } catch {
            post(.fetchFailed(path: path, message: ErrorText.plain(error)))
        }
    }

    // MARK: - Documents

    private func openDocument(_ path: String, password: String?, post: (Event) -> Void) {
        do {
            let document = try PDFDocument(path: path, password: password)
            let fingerprint = (try? PDFFingerprint.of(path: path)) ?? "path:" + path
            lock.withLock { documents[path] = OpenDocument(document: document, fingerprint: fingerprint) }
            let info = DocumentInfo(pageCount: document.pageCount, title: document.title, labels: document.pageLabels,
                                    outline: document.outline.map { OutlineEntry(title: $0.title, level: $0.level, page: $0.page) })
            let position = try? store?.position(fingerprint: fingerprint)
            noteCachedFileRead(path)
            post(.documentOpened(path: path, info: info, resumePage: position?.page, resumeScroll: position?.scroll ?? 0,
                                 mode: position?.mode))
        } catch PDFError.encrypted {
            post(.documentNeedsPassword(path: path, wrong: false))
        } catch PDFError.wrongPassword {
            post(.documentNeedsPassword(path: path, wrong: true))
        } catch {
            post(.documentFailed(path: path, message: "\(error)"))
        }
    }

    /// A synced PDF just opened counts as read now, so the cache keeps it longest.
    private func noteCachedFileRead(_ path: String) {
        for file in library.files {
            guard let locations = RemoteLocations.owning(file.source.path) else { continue }
            let root = locations.cache.path + "/"
            guard path.hasPrefix(root), let manifest = try? CacheManifest(url: locations.manifest) else { continue }
            try? manifest.markRead(String(path.dropFirst(root.count)), at: clock())
            return
        }
    }

    /// A page's text from the cache, else from poppler (then cached).
    func text(of path: String, page: Int, mode: ReadingMode) throws -> String {
        guard let open = lock.withLock({ documents[path] }) else { throw PDFError.cannotOpen(path: path, reason: "not open") }
        let key = PageTextCache.Key(document: open.fingerprint, page: page, mode: mode == .layout ? .layout : .reflow)
        if let cached = pages.text(for: key) { return cached }
        let text = try open.document.text(ofPage: page, mode: key.mode)
        pages.insert(text, for: key)
        return text
    }

    /// Extracts the pages after `page` ahead of need (the app runs this at low priority).
    public func prefetch(_ path: String, after page: Int, mode: ReadingMode, count: Int = 2) {
        guard let pageCount = lock.withLock({ documents[path]?.document.pageCount }) else { return }
        for next in (page + 1)..<min(pageCount + 1, page + 1 + count) {
            _ = try? text(of: path, page: next, mode: mode)
        }
    }

    /// The next page after `page` (or before it) whose lines, as the reading view shows them,
    /// hold `query` (ignoring case and accents); past the last page (or the first) the search
    /// goes on from the other end back to `page` itself, and says it `wrapped`.
    func find(_ query: String, in path: String, after page: Int, forward: Bool, mode: ReadingMode, width: Int) -> (page: Int, wrapped: Bool)? {
        guard let pageCount = lock.withLock({ documents[path]?.document.pageCount }), pageCount > 0 else { return nil }
        let start = min(max(1, page), pageCount)
        for step in 1...pageCount {
            let candidate = forward ? (start - 1 + step) % pageCount + 1 : (start - 1 - step + pageCount * 2) % pageCount + 1
            guard let text = try? text(of: path, page: candidate, mode: mode) else { continue }
            if !ReadingText.occurrences(of: query, in: ReadingText.shownLines(of: text, mode: mode, width: width)).isEmpty {
                return (candidate, forward ? candidate <= start : candidate >= start)
            }
        }
        return nil
    }

    private func group(at path: String) -> Group? {
        lock.withLock { groupsByPath[path] }
    }

    /// The list marks of one reference (it looks at the disk for its PDFs).
    static func marks(of entry: Entry) -> ReferenceMarks {
        var marks: ReferenceMarks = []
        switch PDFPlace(of: entry) {
        case .here: marks.insert(.hasPDF)
        case .remoteOnly: marks.insert(.remoteOnly)
        case .nowhere: break
        }
        if let read = entry.decoded("read"), SmartCondition.isTrue(read) { marks.insert(.read) }
        return marks
    }
}
