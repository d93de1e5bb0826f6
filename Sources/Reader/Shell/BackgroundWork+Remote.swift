import BibModel
import BibreadServices
import Foundation
import OpenWith
import PDFText
import ReaderCore
import SyncEngine

/// The transfers: downloading a linked file, syncing the library's remote, loading a reading
/// list; each a job with its own cancellation token.
extension BackgroundWork {
    /// Downloads a file from the library's remote, or syncs it, until `token` is cancelled; a
    /// cancel stops the latest download (or sync), nothing else.
    public func perform(_ effect: SyncEffect, token: CancellationToken, post: (Event) -> Void) {
        switch effect {
        case .fetchFile(let path):
            fetch(path, token: token, post: post)
        case .cancelFetch:
            jobs.cancel(.download)
        case .syncLibrary(let group, let shownGroup):
            syncLibrary(group: group?.path, shownGroup: shownGroup.path, automatic: false, token: token, post: post)
        case .syncInBackground(let group, let shownGroup):
            syncLibrary(group: group?.path, shownGroup: shownGroup.path, automatic: true, token: token, post: post)
        case .cancelSync:
            jobs.cancel(.sync)
        case .endSyncForQuit(let detach, let group):
            endSyncForQuit(detach: detach, group: group?.path, post: post)
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

    /// The remote this library was synced from (config.toml's definition first).
    private func libraryRemote() -> (RemoteLocations, Remote)? {
        guard let locations = library.files.lazy.compactMap({ RemoteLocations.owning($0.source.path) }).first,
              let remote = remotes.first(where: { $0.name == locations.name }) ?? locations.savedRemote() else { return nil }
        return (locations, remote)
    }

    private func syncLibrary(group: String?, shownGroup: String, automatic: Bool, token: CancellationToken, post: (Event) -> Void) {
        lock.withLock { syncsRunning += 1 }
        defer { lock.withLock { syncsRunning -= 1 } }
        guard !token.isCancelled else {
            post(.syncFinished(summary: "Stopped syncing", libraryChanged: false, failed: false))
            return
        }
        guard let (locations, remote) = libraryRemote() else {
            post(.syncFinished(summary: "This library was not synced from a remote: use bibread sync URL first", libraryChanged: false, failed: true))
            return
        }
        var options = SyncOptions()
        options.selection = SyncSelection(groups: group.map { [$0] } ?? [])
        options.documentCheck = { PDFDocument.openingProblem(path: $0) }
        if !syncOnMetered && NetworkState.isMetered(environment: environment) { options.fetchPDFs = false }
        if let store {
            options.readingState = ReadingStateExchange.sharing(remoteName: remote.name, deviceName: deviceName, state: store.directory)
        }
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
            // A sync of the reader's own that brought nothing new says nothing (an empty summary).
            let text = automatic ? Self.backgroundSyncMessage(summary, remote: remote.name, group: group, refused: refused, changed: changed) ?? ""
                                 : Self.syncMessage(summary, remote: remote.name, group: group, shownGroup: shownGroup, refused: refused)
            post(.syncFinished(summary: text, libraryChanged: changed, failed: !summary.succeeded && !summary.cancelled))
        } catch SyncLockError.stoppedWaiting {
            post(.syncFinished(summary: "Stopped waiting for the other sync of '\(remote.name)'; nothing was changed",
                               libraryChanged: false, failed: false))
        } catch {
            post(.syncFinished(summary: "Sync of '\(remote.name)' failed: \(ErrorText.plain(error))", libraryChanged: false, failed: true))
        }
    }

    /// What a sync the reader started on its own says: what came, and what failed; nil when it
    /// brought nothing new (the message on screen, a warning maybe, stays).
    static func backgroundSyncMessage(_ summary: SyncSummary, remote: String, group: String?, refused: String?, changed: Bool) -> String? {
        if !summary.cancelled && summary.downloaded == 0 && summary.failed.isEmpty && refused == nil && !changed { return nil }
        var text = summary.cancelled ? "Stopped syncing '\(remote)'" : "Synced '\(remote)' in the background"
        if group != nil || summary.downloaded > 0 { text += ": \(summary.downloaded) downloaded, \(summary.current) already here" }
        if let first = summary.failed.first {
            text += "; \(summary.failed.count) failed, first \(first): \(summary.failureReasons[first] ?? "it failed")"
        }
        if let refused { text += "; \(refused)" }
        return text
    }

    /// The reader quits during a sync: the sync is stopped (and waited for, a few seconds at
    /// most, so that it leaves its files as a stop does and lets go of the remote's lock); with
    /// `detach`, `bibread sync NAME --detached` then finishes it in a session of its own, its
    /// output in `$XDG_STATE_HOME/bibread/sync-NAME.log`.
    private func endSyncForQuit(detach: Bool, group: String?, post: (Event) -> Void) {
        jobs.cancel(.sync)
        let deadline = Date().addingTimeInterval(5)
        while lock.withLock({ syncsRunning }) > 0 && Date() < deadline { usleep(20_000) }
        guard detach, let executable = syncExecutable, let (_, remote) = libraryRemote() else { return }
        let background = BackgroundSync(remote: remote.name, folder: Directories(environment: environment).state)
        background.forgetOutcome()
        let arguments = ["sync", "--detached", remote.name] + (group.map { ["--group", $0] } ?? [])
        do {
            try FileManager.default.createDirectory(at: background.folder, withIntermediateDirectories: true)
            try Launcher.spawn(PreparedCommand(executable: executable, arguments: arguments), style: .detached, log: background.logFile.path)
        } catch {
            // The reader is quitting: its message goes to the next start, as the sync's would.
            try? background.record(.init(succeeded: false, text: "it could not be started (\(error))"))
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
}
