import BibModel
import DiskIO
import Foundation

/// Brings a remote's .bib files, then the chosen PDFs, to this machine.
///
/// One sync of a remote runs at a time (``SyncLock``). A .bib replaces the local copy only after
/// a complete download that parses and keeps nearly all of its references, and the replaced copy
/// is kept in `.previous/`; a PDF is written to `NAME.part` and renamed into place once complete
/// and checked (``DownloadCheck``), then recorded in the cache manifest. A `.part` remembers the
/// remote version it belongs to, so the next sync resumes it (or starts over when the file
/// changed).
public final class Syncer: @unchecked Sendable {
    public let remote: Remote
    public let locations: RemoteLocations
    let transport: any Transport
    let session: CurlSession
    private let clock: () -> Double
    /// What carries the downloads: the transport when it fetches through a program of its own
    /// (rclone), else libcurl.
    private var downloader: any Downloading { (transport as? any Downloading) ?? session }
    /// The version each .bib this run pushed now has on the remote: the copy here is that
    /// version, and is not downloaded again.
    private var pushedVersions: [String: RemoteVersion] = [:]

    public init(remote: Remote, locations: RemoteLocations, transport: any Transport, session: CurlSession,
                clock: @escaping () -> Double = { Date().timeIntervalSince1970 }) {
        self.remote = remote
        self.locations = locations
        self.transport = transport
        self.session = session
        self.clock = clock
    }

    /// Runs the sync; `events` is called on this thread; `isCancelled` is polled often.
    public func run(_ options: SyncOptions, events: (SyncEvent) -> Void, isCancelled: () -> Bool) throws -> SyncSummary {
        // One sync of a remote at a time, held until everything below has ended (the defers
        // run in reverse). A dry run changes nothing here and takes no lock.
        let lock = options.dryRun ? nil : try takeLock(options, events: events, isCancelled: isCancelled)
        defer { lock?.release() }
        let started = clock()
        let timer = PhaseTimer()
        var summary = SyncSummary()
        summary.dryRun = options.dryRun
        let wantsPDFs = !options.selection.isEmpty && options.fetchPDFs
        // The cache manifest is opened (or created) on another thread while the .bib files
        // come and the remote is listed.
        // A dry run changes nothing on this machine: it opens the manifest only if there is one.
        let manifestOpening = wantsPDFs && !options.dryRun ? Self.openManifest(locations) : nil
        // Not left running under the process's exit when the sync ends early.
        defer { _ = try? manifestOpening?.get() }
        // A dry run fetches the .bib files that changed into a folder of its own, removed at
        // the end, and plans from them.
        let staging = options.dryRun ? FileManager.default.temporaryDirectory.appendingPathComponent("bibread-dry-run-\(UUID().uuidString)") : nil
        defer { if let staging { try? FileManager.default.removeItem(at: staging) } }
        if !options.dryRun { try FileManager.default.createDirectory(at: locations.library, withIntermediateDirectories: true) }
        // The remote's settings are written (and flushed to disk) while the sync goes on.
        let remoteRecording = options.dryRun ? nil : BackgroundValue { [self] in recordRemote() }
        defer { _ = try? remoteRecording?.get() }
        // Edits made here go to the remote first (merged with what changed there), so that the
        // library that comes back holds them.
        if !options.dryRun {
            if let uploading = transport as? any UploadingTransport {
                pushedVersions = try LibraryPush(locations: locations, transport: uploading).run { events(.notice($0)) }.versions
            } else if let journal = try? locations.existingJournal(), let pending = try? journal.pending(), !pending.isEmpty {
                events(.notice("this remote cannot be written to (a plain HTTP folder): the edits made here stay on this machine"))
            }
        }
        var state = readState()
        var rejected: [String] = []
        let retries = ListingRetries(options)
        let (fetched, listings) = try syncLibraries(options, state: &state, staging: staging, prefetchListings: wantsPDFs,
                                                    retries: retries, events: { event in
            switch event {
            case .library(let file, .rejected), .library(let file, .wouldBeRejected): rejected.append(file)
            default: break
            }
            events(event)
        }, isCancelled: isCancelled)
        summary.rejectedLibraries = rejected
        // A .bib the listing names but that cannot be had, or an entry refused, is that one's
        // problem: the others synced.
        summary.problems += fetched.problems
        for (path, reason) in fetched.failures.sorted(by: { $0.key < $1.key }) {
            summary.failed.append(path)
            summary.failureReasons[path] = reason
        }
        // No transfer may still run on another thread when the process exits (libcurl's and
        // OpenSSL's clean-up would run under it); those listings end long before the PDFs do.
        // A cancelled sync gives them a moment only: Ctrl-C must not wait for a stalled server.
        defer { Self.waitFor(listings, patience: isCancelled() ? Self.listingPatience : nil) }
        timer.lap("sync: the .bib files")
        if !options.dryRun, !isCancelled(), let share = options.readingState {
            if let uploading = transport as? any UploadingTransport {
                // The library synced: a reading state that could not be shared (a server that
                // takes no writes, a moment's failure) is said, and the sync still succeeds.
                do {
                    for notice in try share(uploading) { events(.notice(notice)) }
                } catch {
                    events(.notice("the reading state was not shared: \(ErrorText.plain(error)); the next sync tries again"))
                }
                timer.lap("sync: the reading state")
            }
        }
        if isCancelled() {
            summary.cancelled = true
            return finish(summary, options, started, events)
        }
        guard !options.selection.isEmpty else { return finish(summary, options, started, events) }
        guard options.fetchPDFs else {
            events(.notice("PDFs were not downloaded: the connection is metered (set sync_on_metered = true to allow it)"))
            return finish(summary, options, started, events)
        }
        // A dry run reads the copies it fetched in place of those they would replace.
        let paths = Set(locations.libraryFiles).union(fetched.staged.keys).sorted()
        guard !paths.isEmpty else {
            summary.problems.append("no .bib file of remote '\(remote.name)' is on this machine yet")
            summary.libraryMissing = true
            return finish(summary, options, started, events)
        }
        // A library of one file that was just downloaded was parsed to check it: that parse
        // is the library (a file of several parts shares `@string`s and is read again).
        let library = (paths.count == 1 ? fetched.libraries[paths[0]] : nil)
            ?? LibraryLoader.load(paths: paths, reading: paths.map { fetched.staged[$0] ?? $0 }).library
        timer.lap("sync: load the library")
        // A name the library does not have is a mistake to fix, not a choice of nothing: no
        // PDF is planned or fetched.
        summary.unknownNames = SyncPlanner.unknownNames(in: options.selection, library: library)
        guard summary.unknownNames.isEmpty else {
            summary.problems += summary.unknownNames
            return finish(summary, options, started, events)
        }
        let (planned, problems) = SyncPlanner.plan(library, selection: options.selection, locations: locations, mapping: remote.pathMapping)
        timer.lap("sync: plan \(planned.count) PDFs")
        summary.problems += problems
        summary.selected = planned.map(\.remotePath)
        var refused = Set<String>()
        let remoteFiles = try describe(planned.map(\.remotePath), listings: listings, retries: retries,
                                       events: events, isCancelled: isCancelled, refusing: { path, reason in
            refused.insert(path)
            summary.problems.append(reason)
        })
        // Written (and flushed to disk) while the PDFs come.
        let folderNoting = options.dryRun ? nil : noteFolders(of: planned.map(\.remotePath), in: state)
        defer { _ = try? folderNoting?.get() }
        timer.lap("sync: list the remote folders")
        let manifest: CacheManifest?
        do {
            manifest = options.dryRun ? nil : try (manifestOpening ?? Self.openManifest(locations)).get()
        } catch where DiskFull.isCause(of: error) {
            throw freeRoom(manifest: nil)
        }
        timer.lap("sync: wait for the cache manifest")
        var wanted: [RemoteFile] = []
        let recorded = try manifest?.all() ?? existingManifestRecords()
        let records = Dictionary(recorded.map { ($0.path, $0) }, uniquingKeysWith: { $1 })
        for file in planned {
            guard let described = remoteFiles[file.remotePath] else {
                if !refused.contains(file.remotePath) { summary.missing.append(file.remotePath) }
                continue
            }
            if isCurrent(described, record: records[file.remotePath]) {
                summary.current += 1
            } else {
                wanted.append(described)
            }
        }
        let bytes = wanted.reduce(Int64(0)) { $0 + ($1.size ?? 0) }
        timer.lap("sync: compare with the cache")
        events(.planned(files: wanted.count, bytes: bytes, alreadyCurrent: summary.current))
        if options.dryRun {
            summary.wouldDownload = wanted.count
            summary.wouldDownloadBytes = bytes
        }
        for path in summary.missing { events(.notice("\(path) is linked but not on the remote")) }
        guard let manifest else { return finish(summary, options, started, events) }
        // The reader then counts a PDF the remote lacks as nowhere, not as one to fetch. Only
        // that is lost when it cannot be written (a full disk): the downloads still go on.
        let missing = Set(summary.missing)
        try? manifest.noteLooked(absent: summary.missing, present: planned.map(\.remotePath).filter { !missing.contains($0) })
        dropPartialDownloads(except: wanted, manifest: manifest, events: events)
        do {
            try download(wanted, options: options, manifest: manifest, summary: &summary, events: events, isCancelled: isCancelled)
        } catch where DiskFull.isCause(of: error) {
            // The manifest could not be written ("database or disk is full").
            throw freeRoom(manifest: manifest)
        }
        summary.recordedBytes = try? manifest.recordedBytes()
        timer.lap("sync: download \(wanted.count) PDFs")
        return finish(summary, options, started, events)
    }

    /// Takes the remote's sync lock; while another sync holds it, waits and says so (or, when
    /// `options` say not to wait, throws ``SyncLockError/busy(remote:holder:)``).
    private func takeLock(_ options: SyncOptions, events: (SyncEvent) -> Void, isCancelled: () -> Bool) throws -> SyncLock {
        try SyncLock.acquire(locations, wait: options.waitForOtherSync,
                             waiting: { events(.waiting(remote: remote.name, holder: $0)) },
                             failedToLock: { events(.notice($0)) }, isCancelled: isCancelled)
    }

    /// Writes the remote's settings beside its library (for commands given only its name),
    /// unless the file already says the same: a no-op sync writes nothing.
    private func recordRemote() {
        try? locations.saveRemote(remote)
    }

    /// The records of the cache manifest when there is one, without creating it (a dry run).
    private func existingManifestRecords() throws -> [CacheManifest.Record] {
        guard FileManager.default.fileExists(atPath: locations.manifest.path) else { return [] }
        return try CacheManifest(url: locations.manifest).all()
    }

    /// Starts opening the cache manifest of `locations` (creating the cache folder) on another thread.
    private static func openManifest(_ locations: RemoteLocations) -> BackgroundValue<CacheManifest> {
        BackgroundValue {
            try FileManager.default.createDirectory(at: locations.cache, withIntermediateDirectories: true)
            return try CacheManifest(url: locations.manifest)
        }
    }

    /// Ends a sync, still holding its lock: a sync that succeeded trims the cache to
    /// `options.cacheLimit` (least recently read first, keeping what it selected), so that no
    /// other sync or purge of the remote removes files at the same time.
    private func finish(_ summary: SyncSummary, _ options: SyncOptions, _ started: Double, _ events: (SyncEvent) -> Void) -> SyncSummary {
        var summary = summary
        if let limit = options.cacheLimit, !summary.dryRun, summary.succeeded {
            let timer = PhaseTimer()
            CachePolicy.enforceLimit(limit, locations: locations, keeping: Set(summary.selected),
                                     recordedBytes: summary.recordedBytes, report: { events(.notice($0)) })
            timer.lap("sync: keep the cache under its limit")
        }
        summary.seconds = clock() - started
        events(.finished(summary))
        return summary
    }

    /// Fetches one file into the cache (a PDF opened in the reader that only the remote has);
    /// returns where it is now, or nil when cancelled.
    public func fetch(_ remotePath: String, options: SyncOptions, events: (SyncEvent) -> Void, isCancelled: () -> Bool) throws -> URL? {
        // It writes the cache as a sync does: not while a sync of the remote runs.
        let lock: SyncLock
        do {
            lock = try takeLock(options, events: events, isCancelled: isCancelled)
        } catch SyncLockError.stoppedWaiting {
            return nil
        }
        defer { lock.release() }
        try FileManager.default.createDirectory(at: locations.cache, withIntermediateDirectories: true)
        let manifest = try CacheManifest(url: locations.manifest)
        var refusal: String?
        let described = try describe([remotePath], retries: ListingRetries(options), events: events, isCancelled: isCancelled,
                                     refusing: { _, reason in refusal = reason })
        if let refusal { throw RemoteError.fetchFailed(path: remotePath, reason: refusal) }
        guard let file = described[remotePath] else {
            try? manifest.noteLooked(absent: [remotePath], present: [])
            throw TransportError.notFound(remotePath)
        }
        var summary = SyncSummary()
        var reason = "it failed"
        try download([file], options: options, manifest: manifest, summary: &summary, events: { event in
            if case .fileFailed(_, let why, _) = event { reason = why }
            events(event)
        }, isCancelled: isCancelled)
        if summary.cancelled { return nil }
        guard summary.failed.isEmpty else { throw RemoteError.fetchFailed(path: remotePath, reason: reason) }
        return try locations.cachedFile(remotePath)
    }

    // MARK: - Libraries

    private struct LibraryState: Codable {
        var versions: [String: String] = [:]
        /// The errors of each copy in use, with the size and modification time it had then.
        var copies: [String: CopyFacts]? = [:]
        /// The folders the last sync's PDFs are in: the next one lists them ahead.
        var folders: [String]?
    }

    private func readState() -> LibraryState {
        (try? JSONDecoder().decode(LibraryState.self, from: Data(contentsOf: libraryStateURL))) ?? LibraryState()
    }

    /// Starts writing `state` with the folders of `paths` noted for the next sync, on another
    /// thread; nil when they are those noted already.
    private func noteFolders(of paths: [String], in state: LibraryState) -> BackgroundValue<Void>? {
        let folders = Set(paths.map(Self.folder(of:))).sorted()
        guard state.folders != folders else { return nil }
        var noted = state
        noted.folders = folders
        return BackgroundValue { [self, noted] in
            guard let data = try? JSONEncoder().encode(noted) else { return }
            try? AtomicFile.write(data, to: libraryStateURL)
        }
    }

    /// The folder of a remote path ("" for the root).
    static func folder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent == "." ? "" : parent
    }

    /// What a sync found in the copy of a .bib it put in place.
    private struct CopyFacts: Codable, Equatable {
        var errors: Int
        /// Its references (nil in the state of a sync before this was noted).
        var entries: Int?
        var size: Int64
        /// Nanoseconds since 1970.
        var modified: Int64

        /// The facts of the file at `path`, read as `loaded`; nil when it cannot be read.
        init?(path: String, loaded: Library) {
            self.init(path: path, errors: loaded.errorCount, entries: loaded.entries.count)
        }

        /// The size and modification time of the file at `path`, with `errors` and `entries`;
        /// nil when it cannot be read.
        init?(path: String, errors: Int, entries: Int?) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.errors = errors
            self.entries = entries
            size = Int64(status.st_size)
            modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        }
    }

    private var libraryStateURL: URL { locations.library.appendingPathComponent(".bibread-sync.json") }

    /// Listings of remote folders started on other threads, by folder.
    typealias Listings = [String: BackgroundValue<[RemoteFile]>]

    /// The most folders at the remote's root that are listed ahead, while the .bib comes:
    /// PDFs usually live in one or two of them; a root with more is not a library's folder.
    static let maximumFoldersListedAhead = 4

    /// Brings the .bib files that changed, noting them in `state`; returns the library read from
    /// each one put in place (by its local path), as parsed to check it, and the listings
    /// started ahead: with `prefetchListings`, the folders where the PDFs likely are (see
    /// ``listAhead(_:remembered:)``) are listed on other threads while the .bib files download,
    /// so the PDFs can start without another round trip once the library is read.
    private func syncLibraries(_ options: SyncOptions, state: inout LibraryState, staging: URL?, prefetchListings: Bool,
                               retries: ListingRetries, events: (SyncEvent) -> Void,
                               isCancelled: () -> Bool) throws -> (fetched: FetchedLibraries, listings: Listings) {
        var listings: Listings = [:]
        do {
            let fetched = try fetchLibraries(options, state: &state, staging: staging, prefetchListings: prefetchListings,
                                             retries: retries, listings: &listings, events: events, isCancelled: isCancelled)
            return (fetched, listings)
        } catch {
            // The listings started ahead end here, not under the process's exit (unless they
            // take longer than a moment).
            Self.waitFor(listings, patience: Self.listingPatience)
            throw error
        }
    }

    /// The .bib files a sync brought, by local path: each library as parsed to check it, and,
    /// in a dry run, where the copy that would replace the local one was fetched to.
    struct FetchedLibraries {
        var libraries: [String: Library] = [:]
        var staged: [String: String] = [:]
        /// Entries of the listing left out, and .bib files refused on the way, one message each.
        var problems: [String] = []
        /// The .bib files that could not be had, with why, by remote path.
        var failures: [String: String] = [:]
    }

    /// ``syncLibraries(_:state:staging:prefetchListings:retries:events:isCancelled:)`` but for waiting on
    /// the listings it starts (`listings`) when it throws. With `staging` (a dry run), a newer
    /// .bib is fetched and checked there, and nothing of this machine's library changes.
    private func fetchLibraries(_ options: SyncOptions, state: inout LibraryState, staging: URL?, prefetchListings: Bool,
                                retries: ListingRetries, listings: inout Listings,
                                events: (SyncEvent) -> Void, isCancelled: () -> Bool) throws -> FetchedLibraries {
        var fetched = FetchedLibraries()
        var files: [RemoteFile] = []
        if remote.libraries.isEmpty {
            let listed = try retries.run(notice: { events(.notice($0)) }, isCancelled: isCancelled) { try transport.list("") }
            let (root, refused) = ListingCheck.usable(listed)
            fetched.problems += refused
            files = root.filter { !$0.isFolder && $0.path.lowercased().hasSuffix(".bib") }
            if files.isEmpty { throw RemoteError.badListing("no .bib file at the remote's root; name them with libraries = [\"…\"]") }
            if prefetchListings { listings = listAhead(root, remembered: state.folders) }
        } else {
            var refused = Set<String>()
            let described = try describe(remote.libraries, retries: retries, events: events, isCancelled: isCancelled,
                                         refusing: { path, reason in
                refused.insert(path)
                fetched.problems.append(reason)
            })
            for name in remote.libraries where !refused.contains(name) {
                if let file = described[name] {
                    files.append(file)
                    continue
                }
                let reason = TransportError.notFound(name).description
                fetched.failures[name] = reason
                events(.fileFailed(path: name, reason: reason, retrying: false))
            }
        }
        for file in files {
            guard !isCancelled() else { return fetched }
            let local = try RemotePath.local(file.path, under: locations.library)
            // The same version is not the same file when the listing gives another size than
            // the copy a sync put in place had (one cut short by a server that gave no length).
            let recorded = state.copies?[file.path]
            // The version this run's push made: the copy here is it (or it with an edit made
            // since, which the next push takes), so it is noted as synced, not downloaded again.
            if staging == nil, let version = file.version, pushedVersions[file.path]?.token == version,
               let facts = CopyFacts(path: local.path, loaded: LibraryLoader.load(paths: [local.path]).library) {
                state.versions[file.path] = version
                state.copies = state.copies ?? [:]
                state.copies?[file.path] = facts
                try AtomicFile.write(try JSONEncoder().encode(state), to: libraryStateURL)
                events(.library(file: file.path, outcome: .unchanged))
                continue
            }
            if let version = file.version, state.versions[file.path] == version, FileManager.default.fileExists(atPath: local.path),
               file.size == nil || recorded == nil || recorded?.size == file.size {
                events(.library(file: file.path, outcome: .unchanged))
                continue
            }
            let download = try staging.map { try RemotePath.local(file.path, under: $0) }
                ?? local.deletingLastPathComponent().appendingPathComponent(".\(local.lastPathComponent).download")
            try FileManager.default.createDirectory(at: download.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: download)
            let outcome = try fetchWithRetries(file, to: download, options: options, isCancelled: isCancelled)
            guard case .completed(let status, let headers, _) = outcome else {
                try? FileManager.default.removeItem(at: download)
                // One .bib that cannot be had (a 404, a busy server) fails alone: the others sync.
                guard case .failed(let failure) = outcome else { return fetched }
                fetched.failures[file.path] = failure.description
                events(.fileFailed(path: file.path, reason: failure.description, retrying: false))
                continue
            }
            // A dry run says what the sync would refuse, and keeps nothing aside.
            func refuse(_ reason: String) throws {
                if staging != nil {
                    events(.library(file: file.path, outcome: .wouldBeRejected(reason: reason)))
                } else {
                    try keepAside(download, file: file, reason: reason, events: events)
                }
            }
            if let problem = check(options).problem(with: download.path, remote: file, answer: status, headers: headers) {
                try refuse(problem)
                continue
            }
            let (fresh, failures) = LibraryLoader.load(paths: [local.path], reading: [download.path])
            let previous = contents(ofCopyAt: local.path, recorded: recorded)
            if let failure = failures.first {
                try refuse(failure.reason.explanation)
                continue
            }
            if let previous, fresh.errorCount > previous.errors {
                try refuse("it has \(fresh.errorCount) errors where the copy in use has \(previous.errors)")
                continue
            }
            // One that drops many references (a server that closed early, between two entries)
            // is not put in place unasked.
            let loss = previous.flatMap { Self.loss(from: $0.entries, to: fresh.entries.count) }
            if let loss, !options.acceptFewerReferences {
                try refuse("\(loss) (if that is right: bibread sync \(remote.name) --accept)")
                continue
            }
            // From here until the last synced copy is kept, the copy in use is locked: an edit
            // (which takes the same lock) waits, and is made on the new copy; it cannot fall
            // between the looks below and the rename, or make the base differ from the copy.
            let lock = staging == nil ? try locations.lockCopy(local) : nil
            defer { lock?.release() }
            // Edits made here that the remote does not have yet stay: the copy holding them is
            // not replaced (the remote's version is kept aside, for the push that merges them).
            if let journal = try? locations.existingJournal(), let edits = try? journal.pendingEditCount(file: file.path), edits > 0 {
                try refuse("it holds \(edits) edit\(edits == 1 ? "" : "s") made here that the remote does not have yet")
                continue
            }
            // So are changes another program made to the copy here (it is not the last synced
            // copy, and the push could not put it on the remote), unless --accept says to.
            if !options.acceptFewerReferences, let base = locations.baseCopy(of: file.path), let here = try? Data(contentsOf: local),
               !here.elementsEqual(base.contents) {
                try refuse("it holds changes made here outside bibread that the remote does not have yet (to put the remote's version in its place all the same, the copy here kept in .previous/: bibread sync \(remote.name) --accept)")
                continue
            }
            if staging != nil {
                fetched.staged[local.path] = download.path
                fetched.libraries[local.path] = fresh
                events(.library(file: file.path, outcome: .wouldUpdate))
                continue
            }
            // The copy in use stays within reach (a few per file), then the new one replaces it
            // durably: flushed, renamed, the folder flushed.
            let kept = PreviousCopies(folder: locations.previousCopies).keep(local, as: file.path)
            try AtomicFile.moveIntoPlace(download, to: local)
            // Then, not before (a crash between must not leave a base newer than the copy in
            // use), the last synced copy with its version, the base of a later merge.
            keepBaseCopy(of: local, as: file, headers: headers, events: events)
            // A download of this file refused before is no longer the one waiting to be looked at.
            try? FileManager.default.removeItem(at: rejectedCopy(of: file))
            if let version = file.version { state.versions[file.path] = version }
            state.copies = state.copies ?? [:]
            state.copies?[file.path] = CopyFacts(path: local.path, errors: fresh.errorCount, entries: fresh.entries.count)
            try AtomicFile.write(try JSONEncoder().encode(state), to: libraryStateURL)
            fetched.libraries[local.path] = fresh
            events(.library(file: file.path, outcome: .updated(entries: fresh.entries.count)))
            if let loss {
                events(.notice("\(file.path): put in place as --accept asks, though \(loss)"
                               + (kept.map { "; the copy it replaced is kept at \($0.path)" } ?? "")))
            }
        }
        return fetched
    }

    /// How long a sync that ends early (an error, Ctrl-C) waits for its listings ahead.
    static let listingPatience = 2.0

    /// Waits until every listing of `listings` has ended (their results are not needed), or
    /// until `patience` seconds have passed in all.
    private static func waitFor(_ listings: Listings, patience: Double? = nil) {
        guard let patience else {
            for listing in listings.values { _ = try? listing.get() }
            return
        }
        let deadline = Date().addingTimeInterval(patience)
        for listing in listings.values where !listing.wait(seconds: max(0, deadline.timeIntervalSinceNow)) { return }
    }

    /// Starts listing folders on other threads: those the last sync's PDFs were in, or, on a
    /// first sync, those of `root` (the remote root's listing); none when there are more than
    /// ``maximumFoldersListedAhead``.
    private func listAhead(_ root: [RemoteFile], remembered: [String]?) -> Listings {
        // The root's listing is in hand already.
        var listings: Listings = ["": BackgroundValue(made: root)]
        let folders = (remembered ?? root.filter(\.isFolder).map(\.path)).filter { !$0.isEmpty }
        guard folders.count <= Self.maximumFoldersListedAhead else { return listings }
        let transport = self.transport
        for folder in folders where listings[folder] == nil {
            listings[folder] = BackgroundValue { try transport.list(folder) }
        }
        return listings
    }

    /// The errors and references of the copy in use at `path`: as recorded when a sync put it
    /// there, if it is still that file (same size and modification time), else counted by
    /// reading it; nil when there is none.
    private func contents(ofCopyAt path: String, recorded: CopyFacts?) -> (errors: Int, entries: Int)? {
        guard let current = CopyFacts(path: path, errors: recorded?.errors ?? 0, entries: recorded?.entries) else { return nil }
        if let recorded, current == recorded, let entries = recorded.entries { return (recorded.errors, entries) }
        let library = LibraryLoader.load(paths: [path]).library
        return (library.errorCount, library.entries.count)
    }

    /// The share of the copy in use's references a new .bib may drop without being refused
    /// (and one reference always may go).
    public static let tolerableLoss = 0.05

    /// What a .bib of `new` references in place of one of `old` loses, when that is more than
    /// ``tolerableLoss`` of them and more than one; nil when it is not.
    static func loss(from old: Int, to new: Int) -> String? {
        let dropped = old - new
        guard dropped > 1 && Double(dropped) > Double(old) * tolerableLoss else { return nil }
        return "it has \(new) references where the copy in use has \(old): \(dropped) would be dropped"
    }

    /// How to check a finished download.
    /// Keeps the copy of `file` just put in place at `local` as its last synced copy, with the
    /// version the remote gave it (remotes that can be written back only). One that cannot be
    /// kept is removed, with a notice: a base older than the copy in use would only cost a merge
    /// that finds both sides made the same changes, but a missing one says so plainly.
    private func keepBaseCopy(of local: URL, as file: RemoteFile, headers: [String: String], events: (SyncEvent) -> Void) {
        guard let transport = transport as? any UploadingTransport else { return }
        let copies = locations.baseCopies
        do {
            guard let version = try transport.version(ofDownload: local, listed: file, headers: headers) else {
                try? FileManager.default.removeItem(at: copies.file(for: file.path))
                return
            }
            try copies.save(VersionedContents(contents: Array(try Data(contentsOf: local)), version: version), of: file.path)
        } catch {
            try? FileManager.default.removeItem(at: copies.file(for: file.path))
            events(.notice("\(RemotePath.printable(file.path)): cannot keep the synced copy for merging later: \(ErrorText.plain(error))"))
        }
    }

    private func check(_ options: SyncOptions) -> DownloadCheck {
        DownloadCheck(transport: transport, documentCheck: options.documentCheck)
    }

    private func keepAside(_ download: URL, file: RemoteFile, reason: String, events: (SyncEvent) -> Void) throws {
        try FileManager.default.createDirectory(at: locations.rejected, withIntermediateDirectories: true)
        let kept = rejectedCopy(of: file)
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.moveItem(at: download, to: kept)
        events(.library(file: file.path, outcome: .rejected(reason: reason, keptAt: kept.path)))
    }

    /// Where a refused download of `file` is kept (``keepAside(_:file:reason:events:)``).
    private func rejectedCopy(of file: RemoteFile) -> URL {
        locations.rejected.appendingPathComponent(file.path.replacingOccurrences(of: "/", with: "_"))
    }

    // MARK: - Remote facts

    /// What the remote says about each path: one listing per folder (none per file), or a HEAD
    /// per file where the remote cannot list. A folder in `listings` was listed ahead; when
    /// that failed it is listed again here, so listing ahead never loses a sync. Listings and
    /// HEADs a busy server fails are tried again as `retries` says (each wait said through
    /// `events`). A path bibread refuses (`..`, a NUL byte, a symbolic link on the way in a
    /// folder remote) is left out, and `refusing` is told why; the others are described.
    func describe(_ paths: [String], listings: Listings = [:], retries: ListingRetries = ListingRetries(),
                  events: (SyncEvent) -> Void = { _ in }, isCancelled: () -> Bool = { false },
                  refusing: (_ path: String, _ reason: String) -> Void = { _, _ in }) throws -> [String: RemoteFile] {
        var result: [String: RemoteFile] = [:]
        let notice = { (text: String) in events(.notice(text)) }
        var safe: [String] = []
        for path in paths {
            do {
                _ = try RemotePath.validated(path)
                safe.append(path)
            } catch {
                refusing(path, "\(error)")
            }
        }
        if let http = transport as? HTTPFolderTransport {
            for path in safe {
                do {
                    result[path] = try retries.run(notice: notice, isCancelled: isCancelled) { try http.head(path) }
                } catch let error as TransportError where error.isTransient {
                    // A file the server keeps refusing is reported by the download step, which asks again.
                    result[path] = RemoteFile(path: path, size: nil, version: nil, modified: nil)
                }
            }
            return result
        }
        let folders = Set(safe.map(Self.folder(of:)))
        let wanted = Set(safe)
        for folder in folders.sorted() {
            let listing: [RemoteFile]
            do {
                if let ahead = listings[folder], let listed = try? ahead.get() {
                    listing = listed
                } else {
                    listing = try retries.run(notice: notice, isCancelled: isCancelled) { try transport.list(folder) }
                }
            } catch TransportError.notFound {
                continue
            } catch let RemoteError.unsafePath(_, reason) {
                // A folder remote does not list a folder reached through a symbolic link.
                for path in safe where Self.folder(of: path) == folder {
                    refusing(path, RemoteError.unsafePath(path, reason: reason).description)
                }
                continue
            }
            for file in listing where !file.isFolder && wanted.contains(file.path) { result[file.path] = file }
        }
        return result
    }

    private func isCurrent(_ file: RemoteFile, record: CacheManifest.Record?) -> Bool {
        guard let record, let local = try? locations.cachedFile(file.path) else { return false }
        var status = stat()
        guard lstat(local.path, &status) == 0, Int64(status.st_size) == record.size else { return false }
        // A size the remote gives wins over a matching version: a file recorded with another
        // size (cut short where the server gave no length) is not the remote's.
        if let size = file.size, size != record.size { return false }
        if let version = file.version { return record.version == version }
        return record.size == file.size
    }

    // MARK: - Downloads

    /// Where a download starts: the size of a `.part` of the same remote version, else 0 (a
    /// stale `.part` is removed). A `.part` that already holds every byte (bibread was killed
    /// before renaming it) asks for its last byte again: a range starting at the end is a 416,
    /// which some servers (lighttpd) send without the `Content-Range` that says the file is
    /// complete, and the download would then fail at every sync.
    private func resumeOffset(for file: RemoteFile, part: String, recorded: String?) -> Int64 {
        var status = stat()
        guard lstat(part, &status) == 0 else { return 0 }
        let size = Int64(status.st_size)
        if recorded == Self.partKey(file), size <= (file.size ?? .max) { return size > 0 && size == file.size ? size - 1 : size }
        unlink(part)
        return 0
    }

    /// What a `.part` must match to be resumed: the remote version, else its size.
    static func partKey(_ file: RemoteFile) -> String {
        file.version ?? "size:\(file.size ?? -1)"
    }

    private func download(_ files: [RemoteFile], options: SyncOptions, manifest: CacheManifest, summary: inout SyncSummary,
                          events: (SyncEvent) -> Void, isCancelled: () -> Bool) throws {
        var pending = files
        var attempt = 1
        let totalBytes = files.reduce(Int64(0)) { $0 + ($1.size ?? 0) }
        var finishedBytes: Int64 = 0
        // The bytes that arrived in this run in the rounds before this one: the rate counts
        // them, not those of a `.part` resumed from an earlier run.
        var arrivedBefore: Int64 = 0
        let started = clock()
        let checker = check(options)
        // The files made again after their credentials were renewed (once each).
        var renewed = Set<String>()
        while !pending.isEmpty {
            let subTimer = PhaseTimer()
            var jobs: [DownloadJob] = []
            // Where each file goes, and its `.part` while it comes (paths, not URLs: there are
            // many of them).
            var locals: [String] = []
            var parts: [String] = []
            var offsets: [Int64] = []
            let recorded = try manifest.partialVersions()
            let cacheRoot = locations.cache.path
            var folders = Set<Substring>()
            for file in pending {
                let local = try RemotePath.localPath(file.path, under: cacheRoot)
                let part = local + ".part"
                let folder = local[..<(local.lastIndex(of: "/") ?? local.endIndex)]
                if folders.insert(folder).inserted {
                    try FileManager.default.createDirectory(atPath: String(folder), withIntermediateDirectories: true)
                }
                let offset = resumeOffset(for: file, part: part, recorded: recorded[file.path])
                var request = try transport.downloadRequest(file.path, from: offset)
                request.stallTimeout = options.stallTimeout
                jobs.append(DownloadJob(request: request, destination: URL(fileURLWithPath: part, isDirectory: false)))
                locals.append(local)
                parts.append(part)
                offsets.append(offset)
                events(.fileStarted(path: file.path, bytes: file.size))
            }
            subTimer.lap("download: prepare \(jobs.count) transfers")
            // Which version each `.part` belongs to, so that the next sync resumes only those.
            try manifest.startPartials(Dictionary(pending.map { ($0.path, Self.partKey($0)) }, uniquingKeysWith: { $1 }))
            var onDisk = offsets
            // The bytes of each transfer that arrived in this round.
            var arrived = [Int64](repeating: 0, count: jobs.count)
            defer { arrivedBefore += arrived.reduce(0, +) }
            var lastReport = 0.0
            var retry: [RemoteFile] = []
            // The files whose writes found the disk full.
            var noRoom = Set<String>()
            // The longest wait a busy server asked for (Retry-After) this round.
            var serverWait: Double?
            // Files put in place and not yet recorded. They are recorded in one transaction
            // about once a second while the transfers go on, and the rest when this round ends,
            // even when a later step throws.
            var unrecorded: [CacheManifest.Record] = []
            var lastRecorded = clock()
            defer { try? manifest.store(unrecorded) }
            // Each file is checked and put in place as soon as its transfer ends, while the
            // others go on. No flush to disk here: the cache checks itself instead. A file is
            // current only when its size on disk is the size recorded, so one a power cut left
            // short or empty is fetched again by the next sync. (The .bib, which is not a
            // cache, is written with a flush.)
            let outcomes = downloader.download(jobs, parallel: options.parallel, progress: { index, bytes, total in
                onDisk[index] = bytes
                arrived[index] = max(0, bytes - offsets[index])
                let now = clock()
                guard now - lastReport >= 0.1 else { return }
                lastReport = now
                let done = finishedBytes + onDisk.reduce(0, +)
                let transferred = arrivedBefore + arrived.reduce(0, +)
                events(.progress(SyncProgress(path: pending[index].path, fileBytes: bytes, fileTotal: pending[index].size ?? total,
                                              doneBytes: done, totalBytes: totalBytes, rate: Double(transferred) / max(0.001, now - started))))
            }, isCancelled: isCancelled, finished: { index, outcome in
                let file = pending[index]
                // Tries the file again next round when the failure may pass and tries are left.
                func failed(_ reason: String, transient: Bool) {
                    let again = transient && attempt < options.attempts
                    if again {
                        retry.append(file)
                    } else {
                        summary.failed.append(file.path)
                        summary.failureReasons[file.path] = reason
                    }
                    events(.fileFailed(path: file.path, reason: reason, retrying: again))
                }
                switch outcome {
                case .completed(let status, let headers, let bytes):
                    onDisk[index] = 0
                    arrived[index] = max(0, bytes - offsets[index])
                    if let problem = checker.problem(with: parts[index], remote: file, answer: status, headers: headers) {
                        unlink(parts[index])
                        failed(problem, transient: true)
                        return
                    }
                    guard rename(parts[index], locals[index]) == 0 else {
                        failed("cannot put it in place: \(String(cString: strerror(errno)))", transient: false)
                        return
                    }
                    let now = clock()
                    unrecorded.append(CacheManifest.Record(path: file.path, size: bytes, version: file.version, modified: file.modified,
                                                           fetchedAt: now, lastRead: nil))
                    if now - lastRecorded >= 1, (try? manifest.store(unrecorded)) != nil {
                        unrecorded = []
                        lastRecorded = now
                    }
                    finishedBytes += bytes
                    summary.downloaded += 1
                    summary.downloadedBytes += bytes - offsets[index]
                    events(.fileFinished(path: file.path, bytes: bytes))
                case .failed(let failure) where !renewed.contains(file.path)
                    && transport.renewsCredentials(after: failure, of: jobs[index].request):
                    // The remote refused an access token that has just been renewed: once more.
                    renewed.insert(file.path)
                    retry.append(file)
                case .failed(let failure):
                    if DiskFull.isCause(of: failure) { noRoom.insert(file.path) }
                    // A busy server's Retry-After sets the pause before the next round, unless
                    // it asks for longer than a sync waits: then the file fails now.
                    let asked = failure.retryAfter
                    if let asked, failure.isTransient, asked <= options.longestRetryWait { serverWait = max(serverWait ?? 0, asked) }
                    failed(failure.description, transient: failure.isTransient && (asked ?? 0) <= options.longestRetryWait)
                case .cancelled:
                    summary.cancelled = true
                }
            })
            subTimer.lap("download: \(outcomes.count) transfers, each file put in place as it ends")
            if !noRoom.isEmpty { events(.notice(freeRoom(partialDownloadsOf: noRoom, manifest: manifest).description)) }
            if summary.cancelled || isCancelled() {
                summary.cancelled = true
                return
            }
            pending = retry
            if !pending.isEmpty {
                // Back off before the next try (as long as a busy server asked, if it did);
                // still answer a cancel quickly.
                let pause = serverWait ?? options.backoff * pow(2, Double(attempt - 1))
                let until = clock() + pause
                while clock() < until {
                    if isCancelled() {
                        summary.cancelled = true
                        return
                    }
                    usleep(50_000)
                }
            }
            attempt += 1
        }
    }

    private func fetchWithRetries(_ file: RemoteFile, to destination: URL, options: SyncOptions,
                                  isCancelled: () -> Bool) throws -> DownloadOutcome {
        var outcome = DownloadOutcome.cancelled
        for attempt in 1...max(1, options.attempts) {
            try? FileManager.default.removeItem(at: destination)
            func once() throws -> (TransferRequest, DownloadOutcome) {
                var request = try transport.downloadRequest(file.path, from: 0)
                request.stallTimeout = options.stallTimeout
                let job = DownloadJob(request: request, destination: destination)
                return (request, downloader.download([job], parallel: 1, progress: { _, _, _ in }, isCancelled: isCancelled,
                                                     finished: { _, _ in })[0])
            }
            let (request, first) = try once()
            outcome = first
            // Refused credentials just renewed: once more at once.
            if case .failed(let failure) = outcome, transport.renewsCredentials(after: failure, of: request) {
                try? FileManager.default.removeItem(at: destination)
                outcome = try once().1
            }
            guard case .failed(let failure) = outcome, failure.isTransient, attempt < options.attempts,
                  (failure.retryAfter ?? 0) <= options.longestRetryWait else { return outcome }
            let pause = failure.retryAfter ?? options.backoff * pow(2, Double(attempt - 1))
            let until = clock() + pause
            while clock() < until {
                if isCancelled() { return .cancelled }
                usleep(UInt32(min(50_000, max(1, (until - clock()) * 1_000_000))))
            }
        }
        return outcome
    }
}
