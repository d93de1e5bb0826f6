import BibModel
import BibreadServices
import BibreadValues
import Foundation
import OpenWith
import PDFText
import ReaderCore
import SyncEngine
import Synchronization

/// The full-screen reader: loads the library, then runs the event loop that feeds terminal
/// input and background results to `update` and draws what `render` makes.
public enum ReaderApp {
    /// Options from the command line.
    public struct Options: Sendable {
        public var paths: [String]
        /// Called once the first screen is drawn, before the loop starts; the reader goes on
        /// when it returns `.keepRunning` and returns status 0 at once when it returns `.stop`.
        /// The `bibread` command never sets it (programs that embed the reader do).
        public var afterFirstScreen: (@Sendable () -> FirstScreenOutcome)?
        /// A reading list to import on start (a bibread://bookmarks link, a file or a URL):
        /// the reader opens on the bookmarks view and asks about its page notes.
        public var importSource: String?
        /// A link to open: its references become the group "From link", the first opens.
        public var link: ReferenceLink?
        /// The `bibread` program, which finishes a sync in the background when the reader quits
        /// during one (nil: quitting stops the sync).
        public var syncExecutable: String?

        public init(paths: [String]) {
            self.paths = paths
        }
    }

    /// Runs the reader; returns the exit status.
    public static func run(_ options: Options) -> Int32 {
        let timing = LoopTiming()
        FreedMemory.keepLargeBlocksApart()
        let directories = Directories()
        let config = Config.load(from: directories.config)
        var keymap = Keymap()
        var problems = config.problems + keymap.rebind(config.keys)
        let (registry, handlerProblems) = HandlerRegistry.load(user: config.handlerSource?.text,
                                                               userPath: config.handlerSource?.path ?? "config.toml")
        problems += handlerProblems
        let store = SessionStore(directory: directories.state)

        let paths = LibraryPaths.current(given: options.paths, config: config, sessions: store)

        RemoteLocations.registerAliases(forLibraries: paths, remotes: config.remotes)
        config.registerLinkedFileSearch(forLibraries: paths)
        var library: Library?
        if !paths.isEmpty {
            let (loaded, failures) = LibraryLoader.load(paths: paths)
            if failures.count == paths.count {
                for failure in failures { printError("bibread: \(failure)") }
                return 2
            }
            problems += failures.map { "\($0)" }
            if loaded.errorCount + loaded.warningCount > 0 {
                problems.append("\(loaded.errorCount) errors, \(loaded.warningCount) warnings while reading; run 'bibread check' for details")
            }
            library = loaded
        }

        var state = AppState(library: library, paths: paths, width: 80, height: 24, keymap: keymap)
        let session = store.session(for: paths)
        if let library {
            state.librarySynced = LinkedFileLocator.shared.isSynced(library)
            state.groups = GroupCatalog.savedGroups(of: library, synced: state.librarySynced)
            restore(session, into: &state)
        }
        state.message = problems.first.map { StatusMessage($0, isError: true) }
        // How a sync left to finish in the background ended (read once).
        if let outcome = BackgroundSync.takeOutcomes(in: directories.state).first, state.message == nil {
            state.message = StatusMessage(outcome.text, isError: outcome.failed)
        }
        if let library, let remote = library.files.lazy.compactMap({ RemoteLocations.owning($0.source.path) }).first {
            state.backgroundSync = BackgroundSyncSettings(remote: remote.name, canDetach: options.syncExecutable != nil)
        }

        let screen: CursesScreen
        do {
            screen = try CursesScreen(color: config.color)
        } catch {
            printError("bibread: \(error)")
            return 2
        }
        try? FileManager.default.createDirectory(at: directories.state, withIntermediateDirectories: true)
        TerminalGuard.captureStandardError(to: directories.state.appendingPathComponent("stderr.log").path)
        defer {
            screen.close()
            TerminalGuard.releaseStandardError()
        }
        let size = screen.size
        state.width = size.width
        state.height = size.height

        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return 2 }
        _ = fcntl(pipeEnds[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(pipeEnds[1], F_SETFL, O_NONBLOCK)
        TerminalGuard.wakeWriteDescriptor = pipeEnds[1]
        let mailbox = Mailbox(wakeDescriptor: pipeEnds[1])
        let handlers = HandlerRunner(registry: registry, post: { mailbox.post($0) })
        let terminalKind = TerminalKind.detect(environment: ProcessInfo.processInfo.environment)
        defer { handlers.stopAll() }
        var readingStore: ReadingStore?
        do {
            readingStore = try ReadingStore(directory: directories.state)
        } catch {
            state.message = StatusMessage("Reading positions will not be kept: \(ErrorText.plain(error))", isError: true)
        }
        func lastRead(in library: Library) -> [String: Double] {
            (try? readingStore?.lastRead(of: library, localPath: LinkedFileLocator.shared.localPath(of:),
                                         fingerprint: { try? PDFFingerprint.of(path: $0) })) ?? [:]
        }
        // Worked out once for the first screen (a PDF read on another machine is found by its
        // content, which costs a read of it), and given to the background work as it is.
        let firstLastRead = library.map(lastRead(in:)) ?? [:]
        state.lastRead = Dictionary(uniqueKeysWithValues: firstLastRead.map { (EntryAddress($0.key), $0.value) })
        func makeWork(for library: Library, groups: [Group], lastRead known: [String: Double]? = nil) -> BackgroundWork {
            // A library read again finds the files moved since by name too.
            if known == nil { LinkedFileLocator.shared.forgetFolderContents() }
            let work = BackgroundWork(library: library, groups: groups, store: readingStore,
                                      rememberedPages: RememberedPages(folder: RememberedPages.defaultFolder()),
                                      lastRead: known ?? lastRead(in: library), remotes: config.remotes, deviceName: config.deviceName)
            work.syncOnMetered = config.syncOnMetered
            work.syncExecutable = options.syncExecutable
            return work
        }
        let runner = EffectRunner(work: library.map { makeWork(for: $0, groups: state.groups, lastRead: firstLastRead) }, mailbox: mailbox)
        let loopEffects = AppLoopEffects(sessions: store, paths: paths, handlers: handlers, screen: screen, terminalKind: terminalKind,
                                         makeWork: { makeWork(for: $0, groups: GroupCatalog.savedGroups(of: $0, synced: LinkedFileLocator.shared.isSynced($0))) })

        screen.draw(state.render())
        timing.milestone("first screen drawn")
        if options.afterFirstScreen?() == .stop { return 0 }
        var effects = state.start()
        if let link = options.link {
            if state.library == nil {
                state.message = StatusMessage("Open a library to look the link's references up in", isError: true)
            } else {
                effects += state.openLink(link)
            }
        }
        if let source = options.importSource {
            if state.library == nil {
                state.message = StatusMessage("Open a library to import the reading list into (bibread LIB.bib LINK)", isError: true)
            } else {
                effects += state.showBookmarks(importing: source)
            }
        }
        // A synced library syncs in the background on opening, and every sync_every.
        if config.syncOnOpen { effects += state.syncOnItsOwn() }
        let syncTimer = config.syncEvery.flatMap { every in
            state.backgroundSync.remote.map { _ in Self.repeat(every: every) { mailbox.post(.syncDue) } }
        }
        defer { syncTimer?.cancel() }
        let loop = ReaderLoop(state: state, runner: runner, mailbox: mailbox, effects: loopEffects, timing: timing)
        // Another program's change to the library files is read at once, as R would.
        let watcher = state.library.flatMap { library in
            LibraryWatcher(paths: library.files.map(\.source.path)) { mailbox.post(.libraryChangedOnDisk($0)) }
        }
        defer { watcher?.stop() }
        loopEffects.afterReload = { watcher?.noteRead() }
        if let watcher {
            runner.editWriter.watch(with: LibraryEditWriter.WatchHooks(isAsLastRead: { watcher.isAsLastRead($0) },
                                                                      noteWritten: { watcher.noteWritten($0, stamp: $1) }))
        }
        loop.ask(effects)
        loop.run(on: screen, waiter: PollWaiter(input: 0, wake: pipeEnds[0]))
        if loop.unfinishedWrites {
            screen.close()
            TerminalGuard.releaseStandardError()
            printError("bibread: an edit was still being written after \(Int(ReaderLoop.writeWait)) seconds (another program may hold the library's lock); it may not be saved: check with 'bibread show'")
        }
        let signal = TerminalGuard.pendingSignal
        if signal != 0 {
            screen.close()
            TerminalGuard.releaseStandardError()
            return 128 + signal
        }
        return 0
    }

    /// Ends the process with `status` once ``run(_:)`` has returned (its writes are durable and
    /// the terminal is the shell's again). `_exit`, not `exit`: background work may still be
    /// running (the full-text indexer runs poppler on a worker thread), and `exit` would run the
    /// C libraries' destructors under it; glibc then aborted with "free(): invalid pointer" after
    /// a SIGINT, now and then on a loaded machine. What such work leaves is what a kill leaves:
    /// an SQLite transaction not committed, which the next open rolls back.
    public static func endProcess(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }

    /// Calls `action` every `interval`, on a queue of its own, until cancelled.
    private static func `repeat`(every interval: SyncInterval, _ action: @escaping @Sendable () -> Void) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "bibread.sync-every"))
        let seconds = DispatchTimeInterval.seconds(interval.seconds)
        timer.schedule(deadline: .now() + seconds, repeating: seconds, leeway: .milliseconds(200))
        timer.setEventHandler(handler: action)
        timer.resume()
        return timer
    }

    /// Brings back the group, selection and sort of the last session.
    static func restore(_ session: LibrarySession, into state: inout AppState) {
        if let sort = session.sort.flatMap(SortKey.init(rawValue:)) {
            state.sort = sort
            state.sortDescending = session.descending ?? sort.startsDescending
        }
        if let group = session.group.map(GroupID.init(path:)), group != .all {
            state.activeGroup = group
            state.groupMembers = nil
            state.visible = []
        }
        state.pendingSelection = session.selection.map { EntryAddress($0) }
    }

    /// Writes a line to standard error, cleaned of control characters (`TerminalText`).
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(TerminalText.cleaned(text + "\n").utf8))
    }
}
