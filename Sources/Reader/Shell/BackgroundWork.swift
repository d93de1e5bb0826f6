import BibModel
import BibreadServices
import BibreadValues
import Foundation
import FullText
import PDFText
import ReaderCore
import ReadingList
import SyncEngine

/// Does the work effects ask for (everything that reads the whole library, or a PDF) and
/// reports the results as events, one `perform` for each family of effects. `EffectRunner` runs
/// them where their routes say.
public final class BackgroundWork: @unchecked Sendable {
    /// The library and the groups' context for it, changed when the reader shows an edit.
    private var shown: (library: Library, context: GroupContext)
    /// The library the work is for (with the edits the reader shows).
    public var library: Library { lock.withLock { shown.library } }
    private var context: GroupContext { lock.withLock { shown.context } }
    private let now: Date
    let lock = NSLock()
    private var groupsByID: [GroupID: Group] = [:]
    private var lastRead: [String: Double]
    private var documents: [String: OpenDocument] = [:]
    /// More openings of a document's file, for the search of its pages (`find`), by path.
    private var searchReaders: [String: [PDFDocument]] = [:]
    /// The skeletons of the pages of the last document searched, from the full-text index
    /// (`searchSteps`), by path; nil skeletons: the index does not hold it as it is now.
    var indexedSkeletons: (path: String, skeletons: [[UInt8]]?)?
    /// How many threads search a document's pages (`find`): one per core, at most 4; 1 reads
    /// them one after another (the benchmark compares the two).
    public var searchThreads: Int {
        get { lock.withLock { searchThreadCount } }
        set { lock.withLock { searchThreadCount = max(1, newValue) } }
    }
    private var searchThreadCount = min(4, ProcessInfo.processInfo.activeProcessorCount)
    private let pages = PageTextCache(capacity: 256)
    /// The text of the page each document was left at, kept on disk for its file (nil: none is).
    let rememberedPages: RememberedPages?
    /// The page of each open document's last saved position, and the texts kept for it on disk.
    private var savedPages: [String: Int] = [:]
    private var keptPages: [String: Set<RememberedPages.Page>] = [:]
    let store: ReadingStore?
    let clock: @Sendable () -> Double
    let remotes: [Remote]
    /// This machine's name to the others that share its reading state (config.toml's
    /// `device_name`; nil: the host name).
    let deviceName: String?
    /// Where the synced remotes' folders are (`XDG_DATA_HOME`): the journals of conflicts.
    let environment: [String: String]
    /// Where linked files are (the one place the reader looks at the disk for them).
    let locator: LinkedFileLocator
    /// The cancellation of each job (a download, a sync, a reading-list load, indexing).
    let jobs = JobTokens()
    /// config.toml's `sync_on_metered`: false skips PDFs while the connection is metered.
    public var syncOnMetered = true
    /// The `bibread` program that finishes a sync in the background when the reader quits
    /// during one (nil: it cannot be done).
    public var syncExecutable: String?
    /// Syncs running now (the quit waits for a stopped one to end).
    var syncsRunning = 0
    var fullTextIndex: FullTextIndex?
    var pdfs: LibraryPDFs?
    /// Where the full-text index is (tests give a folder of their own); nil: no full-text
    /// index, and full-text effects do nothing.
    let fullTextURL: URL?

    private struct OpenDocument {
        let document: PDFDocument
        let fingerprint: String
        /// The password it was opened with, to open it again for its labels and outline.
        let password: String?

        /// The file whose pages may be kept on disk (`RememberedPages`): not one opened with a
        /// password, whose text stays in memory.
        var keptIdentity: FileIdentity? {
            guard password?.isEmpty ?? true else { return nil }
            return document.fileIdentity
        }
    }

    /// Work for `library`; positions and reading times go to `store`, and the text of the page
    /// each document is left at to `rememberedPages`.
    public init(library: Library, groups: [Group], store: ReadingStore? = nil, rememberedPages: RememberedPages? = nil,
                lastRead: [String: Double] = [:], now: Date = Date(), remotes: [Remote] = [], deviceName: String? = nil,
                fullTextURL: URL? = FullTextIndex.defaultURL(), locator: LinkedFileLocator = .shared,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.remotes = remotes
        self.deviceName = deviceName
        self.environment = environment
        self.fullTextURL = fullTextURL
        self.locator = locator
        self.now = now
        shown = (library, GroupContext(library: library, locator: locator, now: now, threads: 1))
        self.store = store
        self.rememberedPages = rememberedPages
        self.lastRead = lastRead
        self.clock = clock
        register(groups)
    }

    /// Puts an edited entry in its place (what the reader shows before the file is read
    /// again): groups, counts and marks worked out from now on see it.
    public func replaceEntry(at position: Int, with entry: Entry) {
        lock.withLock {
            var library = shown.library
            guard library.replaceEntry(at: position, with: entry) else { return }
            shown = (library, GroupContext(library: library, locator: locator, now: now, threads: 1))
        }
    }

    /// Makes groups findable by the identifiers the groups pane uses.
    public func register(_ groups: [Group]) {
        var byID: [GroupID: Group] = [:]
        func add(_ group: Group, parent: GroupID?) {
            let id = AppState.id(of: group, in: parent)
            if byID[id] == nil { byID[id] = group }
            for child in group.children { add(child, parent: id) }
        }
        for group in groups { add(group, parent: nil) }
        lock.withLock { groupsByID.merge(byID) { old, _ in old } }
    }

    /// Performs work over the library, posting its results (several for long work such as counting).
    public func perform(_ effect: LibraryEffect, post: (Event) -> Void) {
        switch effect {
        case .loadFieldGroups:
            let (library, context) = lock.withLock { shown }
            let fieldGroups = GroupCatalog.fieldGroups(of: library, context: context)
            register(fieldGroups)
            post(.groupsReady(GroupCatalog.savedGroups(of: library, synced: locator.isSynced(library)) + fieldGroups))
        case .countGroups(let ids):
            let (library, context) = lock.withLock { shown }
            let groups = ids.compactMap { id in group(id).map { (id, $0) } }
            // Where the PDFs are first (With PDF and its siblings share one column), then the
            // other built-in groups, then the rest; on one thread (`threads: 1`): the sort and
            // the search index keep the other cores busy, and counting on two made them later.
            let placed: Set<GroupID> = [.builtIn(.withPDF), .builtIn(.withoutPDF), .builtIn(.remoteOnly)]
            let parts = [groups.filter { placed.contains($0.0) },
                         groups.filter { $0.0.builtIn != nil && !placed.contains($0.0) },
                         groups.filter { $0.0.builtIn == nil }]
            for part in parts where !part.isEmpty {
                let counts = GroupCatalog.memberCounts(of: part.map(\.1), in: library, context: context)
                var batch: [GroupID: Int] = [:]
                for ((id, _), count) in zip(part, counts) { batch[id] = count }
                if !batch.isEmpty { post(.groupCounts(batch)) }
            }
        case .computeGroupMembers(let id):
            // An unknown path may be a field group that is not loaded yet: `groupsReady` asks again.
            guard let group = group(id) else { return }
            let (library, context) = lock.withLock { shown }
            post(.groupMembers(id, members: group.members(in: library, context: context)))
        case .buildSearchIndex:
            post(.searchIndexReady(SearchIndex(entries: library.entries)))
        case .computeSort(let key):
            post(.sortReady(key, rank: SortOrder.rank(library.entries, by: key, lastRead: lock.withLock { lastRead })))
        case .computeMarks:
            let library = self.library
            let conventions = LibraryConventions.byPath(of: library)
            var located: [String: FileLocation] = [:]
            for entry in library.entries {
                for file in entry.links.files where located[file.path] == nil { located[file.path] = locator.location(of: file) }
            }
            post(.conventionsReady(conventions))
            post(.filesLocated(located, opening: nil))
            post(.marksReady(library.entries.map { BackgroundWork.marks(of: $0, locations: located, conventions: conventions) }))
        case .loadConflicts:
            var conflicts: [EntryConflict] = []
            for path in Set(library.files.map(\.source.path)).sorted() {
                let stored = (try? ConflictResolution.openConflicts(ofLibraryAt: path, environment: environment)) ?? []
                conflicts += stored.map { EntryConflict(id: $0.id, path: path, conflict: $0.conflict) }
            }
            post(.conflictsLoaded(conflicts))
        case .locateFiles(let files, let address):
            var located: [String: FileLocation] = [:]
            for file in files { located[file.path] = locator.location(of: file) }
            post(.filesLocated(located, opening: address))
        case .collectKeywords:
            post(.keywordsReady(KeywordVocabulary(library: library)))
        }
    }

    /// Performs work on a document being read.
    public func perform(_ effect: DocumentEffect, post: (Event) -> Void) {
        switch effect {
        case .openDocument(let path, let password):
            openDocument(path, password: password, post: post)
        case .readDocumentDetails(let path):
            readDetails(of: path, post: post)
        case .extractPage(let path, let page, let mode):
            do {
                post(.pageText(path: path, page: page, mode: mode, text: try text(of: path, page: page, mode: mode)))
                keepSavedPage(of: path)
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
            lock.withLock { savedPages[path] = page }
            keepSavedPage(of: path)
        case .saveReadingMode(let path, let mode):
            guard let store, let fingerprint = lock.withLock({ documents[path]?.fingerprint }) else { return }
            try? store.saveMode(mode, fingerprint: fingerprint, path: path, at: clock())
        case .recordReading(let address):
            let time = clock()
            lock.withLock { lastRead[address.text] = time }
            // Kept per document (its content and path), so that it counts whatever set of
            // .bib files is open next time.
            if let store, let entry = library.entry(at: address) {
                for file in entry.links.files where file.isPDF {
                    guard let local = locator.localPath(of: file) else { continue }
                    let fingerprint = (try? PDFFingerprint.of(path: local)) ?? "path:" + local
                    try? store.recordReading(fingerprint: fingerprint, path: local, key: entry.key, at: time)
                }
            }
            post(.readingRecorded(address, time: time))
        }
    }

    // MARK: - Documents

    private func openDocument(_ path: String, password: String?, post: (Event) -> Void) {
        do {
            let document = try PDFDocument(path: path, password: password)
            let fingerprint = (try? PDFFingerprint.of(path: path)) ?? "path:" + path
            lock.withLock {
                documents[path] = OpenDocument(document: document, fingerprint: fingerprint, password: password)
                searchReaders[path] = nil
                if indexedSkeletons?.path == path { indexedSkeletons = nil }
            }
            // The labels and the outline read every page of the document (poppler walks its page
            // tree): they come after the first page is shown (`readDocumentDetails`).
            let info = DocumentInfo(pageCount: document.pageCount, title: document.title, labels: [], outline: [],
                                    detailsPending: true)
            let position = try? store?.position(fingerprint: fingerprint)
            if let page = position?.page { restoreKeptPages(of: path, at: page) }
            noteCachedFileRead(path)
            // A place reached on another machine (the shared reading state) says where and when.
            let elsewhere = position.flatMap { position in
                position.machine.map { "read on \($0) \(ElapsedTime.ago(clock() - position.updatedAt))" }
            }
            post(.documentOpened(path: path, info: info, resumePage: position?.page, resumeScroll: position?.scroll ?? 0,
                                 mode: position?.mode, readElsewhere: elsewhere))
        } catch PDFError.encrypted {
            post(.documentNeedsPassword(path: path, wrong: false))
        } catch PDFError.wrongPassword {
            post(.documentNeedsPassword(path: path, wrong: true))
        } catch {
            post(.documentFailed(path: path, message: "\(error)"))
        }
    }

    /// Reads the page labels and the outline of an open document, from a document of their own
    /// (a poppler document serves one thread at a time: the page shown meanwhile is extracted
    /// from the other, on the other core), and posts them.
    /// That opening then serves the search of the document's pages (`find`): poppler has read
    /// its page tree by then, which a new opening would read again before its first page.
    private func readDetails(of path: String, post: (Event) -> Void) {
        guard let open = lock.withLock({ documents[path] }) else { return }
        let second = try? PDFDocument(path: path, password: open.password)
        let document = second ?? open.document
        post(.documentDetails(path: path, labels: document.pageLabels,
                              outline: document.outline.map { OutlineEntry(title: $0.title, level: $0.level, page: $0.page) }))
        if let second {
            lock.withLock {
                if documents[path]?.document === open.document, searchReaders[path] == nil { searchReaders[path] = [second] }
            }
        }
        // What the full-text index holds of it, ready for a search (`searchSteps`).
        prepareSearchSteps(in: path, pageCount: open.document.pageCount)
    }

    /// Puts the texts kept on disk for the file of `path` (opened just now) in the page cache, so
    /// that the remembered `page` is shown without poppler reading its page tree that far.
    private func restoreKeptPages(of path: String, at page: Int) {
        guard let rememberedPages, let open = lock.withLock({ documents[path] }), let identity = open.keptIdentity else { return }
        let kept = rememberedPages.texts(for: identity)
        for (keptPage, text) in kept where keptPage.number <= open.document.pageCount {
            pages.insert(text, for: PageTextCache.Key(document: open.fingerprint, page: keptPage.number, mode: keptPage.mode))
        }
        lock.withLock {
            savedPages[path] = page
            keptPages[path] = Set(kept.keys)
        }
    }

    /// Keeps on disk the texts of the page `path`'s position was last saved at, once the page is
    /// extracted (`RememberedPages`), unless those are kept already.
    private func keepSavedPage(of path: String) {
        guard let rememberedPages else { return }
        let found: (identity: FileIdentity, texts: [RememberedPages.Page: String])? = lock.withLock {
            guard let open = documents[path], let identity = open.keptIdentity, let page = savedPages[path] else { return nil }
            var texts: [RememberedPages.Page: String] = [:]
            for mode in [PageTextMode.reflow, .layout] {
                let key = PageTextCache.Key(document: open.fingerprint, page: page, mode: mode)
                if let text = pages.text(for: key) { texts[RememberedPages.Page(number: page, mode: mode)] = text }
            }
            guard !texts.isEmpty, keptPages[path] != Set(texts.keys) else { return nil }
            keptPages[path] = Set(texts.keys)
            return (identity, texts)
        }
        guard let found else { return }
        rememberedPages.remember(found.texts, for: found.identity)
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
        return try text(of: open, from: open.document, page: page, mode: mode)
    }

    /// A page's text from the cache, else from `document` (`open`'s, or another opening of its
    /// file: the text is the same), then cached.
    private func text(of open: OpenDocument, from document: PDFDocument, page: Int, mode: ReadingMode) throws -> String {
        let key = PageTextCache.Key(document: open.fingerprint, page: page, mode: mode == .layout ? .layout : .reflow)
        if let cached = pages.text(for: key) { return cached }
        let text = try document.text(ofPage: page, mode: key.mode)
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
    /// goes on from the other end back to `page` itself, and says it `wrapped`. The pages are
    /// read on every core, each thread from a poppler document of its own (`DocumentSearch`);
    /// when the full-text index holds the document, only the pages whose indexed text may hold
    /// the query are read (`searchSteps`).
    func find(_ query: String, in path: String, after page: Int, forward: Bool, mode: ReadingMode, width: Int) -> (page: Int, wrapped: Bool)? {
        guard let open = lock.withLock({ documents[path] }) else { return nil }
        let pageCount = open.document.pageCount
        guard pageCount > 0 else { return nil }
        let start = min(max(1, page), pageCount)
        let steps = searchSteps(for: query, in: path, pageCount: pageCount, from: start, forward: forward, mode: mode)
        // One page to read: from the opening the labels were read from, whose page tree poppler
        // has read (the other openings only for more pages: a new one reads the tree first).
        let readers = steps.count > 1 ? [open.document] + searchDocuments(for: path, open)
            : [lock.withLock { searchReaders[path]?.first } ?? open.document]
        let found = DocumentSearch.firstMatch(steps: steps.count, workers: min(readers.count, steps.count)) { index, worker in
            let candidate = DocumentSearch.page(atStep: steps[index - 1], from: start, forward: forward, pageCount: pageCount)
            guard let text = try? text(of: open, from: readers[worker], page: candidate, mode: mode) else { return false }
            return !ReadingText.occurrences(of: query, in: ReadingText.shownLines(of: text, mode: mode, width: width)).isEmpty
        }
        guard let found else { return nil }
        let candidate = DocumentSearch.page(atStep: steps[found - 1], from: start, forward: forward, pageCount: pageCount)
        return (candidate, forward ? candidate <= start : candidate >= start)
    }

    /// The other openings of `path`'s file that a search reads pages from, one per core after
    /// the first (opened once, then kept); none on one core, or when the file no longer opens.
    private func searchDocuments(for path: String, _ open: OpenDocument) -> [PDFDocument] {
        let wanted = searchThreads - 1
        guard wanted > 0 else { return [] }
        let kept = lock.withLock { searchReaders[path] ?? [] }
        if kept.count >= wanted { return Array(kept.prefix(wanted)) }
        let opened = kept + (kept.count..<wanted).compactMap { _ in try? PDFDocument(path: path, password: open.password) }
        lock.withLock { searchReaders[path] = opened }
        return opened
    }

    private func group(_ id: GroupID) -> Group? {
        lock.withLock { groupsByID[id] }
    }

    /// The list marks of one reference whose linked files are at `locations` (by path).
    /// `conventions`: whose conventions each file follows (by path), which say what is read.
    static func marks(of entry: Entry, locations: [String: FileLocation], conventions: [String: LibraryConventions]) -> ReferenceMarks {
        var marks: ReferenceMarks = []
        switch PDFPlace(locations: entry.links.files.filter(\.isPDF).map { locations[$0.path] ?? .missing }) {
        case .here: marks.insert(.hasPDF)
        case .remoteOnly: marks.insert(.remoteOnly)
        case .nowhere: break
        }
        if let fileConventions = conventions[entry.source.path] {
            if fileConventions.isRead(entry) { marks.insert(.read) }
        } else if let read = entry.decoded("read"), SmartCondition.isTrue(read) {
            marks.insert(.read)
        }
        return marks
    }
}
