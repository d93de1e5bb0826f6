import BibModel
import BibreadServices
import Foundation
import OpenWith
import PDFText
import SyncEngine
import Synchronization

/// Events posted from background work, waiting for the event loop.
final class Mailbox: Sendable {
    private let events = Mutex<[Event]>([])
    private let wakeDescriptor: Int32

    init(wakeDescriptor: Int32) {
        self.wakeDescriptor = wakeDescriptor
    }

    func post(_ event: Event) {
        events.withLock { $0.append(event) }
        var byte: UInt8 = 1
        _ = write(wakeDescriptor, &byte, 1)
    }

    func take() -> [Event] {
        events.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}

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

        public init(paths: [String]) {
            self.paths = paths
        }
    }

    /// Runs the reader; returns the exit status.
    public static func run(_ options: Options) -> Int32 {
        let timing = LoopTiming()
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
            state.groups = GroupCatalog.savedGroups(of: library)
            restore(session, into: &state)
        }
        state.message = problems.first.map { StatusMessage($0, isError: true) }

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
            (try? readingStore?.lastRead(of: library, fingerprint: { try? PDFFingerprint.of(path: $0) })) ?? [:]
        }
        state.lastRead = library.map(lastRead(in:)) ?? [:]
        func makeWork(for library: Library, groups: [Group]) -> BackgroundWork {
            BackgroundWork(library: library, groups: groups, store: readingStore, lastRead: lastRead(in: library), remotes: config.remotes)
        }
        let runner = EffectRunner(work: library.map { makeWork(for: $0, groups: state.groups) }, mailbox: mailbox)

        func save() {
            guard state.library != nil else { return }
            let session = state.sessionToSave(previous: store.session(for: paths))
            do {
                try store.save(session, for: paths)
            } catch {
                state.message = StatusMessage("\(error)", isError: true)
            }
        }

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
        var running = true
        var needsFullRedraw = false
        while running {
            while !effects.isEmpty {
                let effect = effects.removeFirst()
                switch effect {
                case .app(.quit): running = false
                case .app(.saveSession): save()
                case .bookmarks(.saveNote) where state.isQuitting, .reading(.savePosition) where state.isQuitting:
                    // Written before the program ends, not on a queue that exit would cut short.
                    runner.runNow(effect)
                case .app(.redrawAll): needsFullRedraw = true
                case .handlers(.prepareOpenWith(let intention, let values)):
                    handlers.prepareMenu(intention: intention, values: values)
                case .handlers(.runHandler(let entry, let executable, let values)) where entry.style == .terminal:
                    // A pager takes the terminal: leave the screen, run it, come back.
                    var failure: String?
                    screen.runOutside {
                        TerminalGuard.withStandardErrorRestored {
                            failure = handlers.runInTerminal(entry, executable: executable, values: values)
                        }
                    }
                    if let failure { effects += state.update(.handlerFinished(message: failure, isError: true)) }
                case .handlers(.runHandler(let entry, let executable, let values)):
                    handlers.run(entry, executable: executable, values: values, terminal: terminalKind)
                case .handlers(.stopListening):
                    handlers.stopListening()
                case .handlers(.copyToClipboard(let text, let what)):
                    handlers.copy(text, what: what, terminal: terminalKind)
                case .app(.reloadLibrary):
                    // A sync brought a new .bib: read it again and start the background work anew.
                    let (reloaded, _) = LibraryLoader.load(paths: paths)
                    runner.replace(makeWork(for: reloaded, groups: GroupCatalog.savedGroups(of: reloaded)))
                    effects += state.update(.libraryReloaded(reloaded))
                default: runner.run(effect)
                }
            }
            effects = []
            guard running else { break }
            if needsFullRedraw {
                screen.invalidate()
                needsFullRedraw = false
            }
            screen.draw(state.render())
            timing.endInputs()

            var descriptors = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)]
            // A wake-up every 2 s when idle, to notice bookmarks another bibread added.
            let ready = poll(&descriptors, 2, 2000)
            if ready < 0 && errno != EINTR { break }
            if ready == 0 {
                effects += state.update(.tick)
                continue
            }
            var drain = [UInt8](repeating: 0, count: 256)
            while read(pipeEnds[0], &drain, 256) > 0 {}
            if TerminalGuard.pendingSignal != 0 {
                TerminalGuard.takeUpSignal()
                effects += state.update(.terminate)
                continue
            }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                // The terminal went away (a closed SSH session): save and leave.
                effects += state.update(.terminate)
                continue
            }
            for event in mailbox.take() {
                timing.milestone(event.name)
                if case .pageText = event { timing.pageArrived() }
                effects += state.update(event)
            }
            // A resize arrives as input (ncurses turns SIGWINCH into KEY_RESIZE).
            var inputs = 0
            while inputs < 512, let event = screen.nextInput() {
                if case .key(.control("z")) = event {
                    screen.suspend()
                    let size = screen.size
                    effects += state.update(.resize(width: size.width, height: size.height))
                    continue
                }
                timing.beginInput(event.name)
                let caused = state.update(event)
                timing.noteWaits(caused)
                effects += caused
                inputs += 1
            }
        }
        runner.finishReadingWrites()
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

    /// Brings back the group, selection and sort of the last session.
    static func restore(_ session: LibrarySession, into state: inout AppState) {
        if let sort = session.sort.flatMap(SortKey.init(rawValue:)) {
            state.sort = sort
            state.sortDescending = session.descending ?? sort.startsDescending
        }
        if let group = session.group, group != "All" {
            state.activeGroup = group
            state.groupMembers = nil
            state.visible = []
        }
        state.pendingSelection = session.selection
    }

    /// Writes a line to standard error, cleaned of control characters (`TerminalText`).
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(TerminalText.cleaned(text + "\n").utf8))
    }
}

/// Runs effects on background queues: interactive work (a group's members, the sort) never
/// waits behind bulk work (counting every group, the search index, PDF pages).
final class EffectRunner: Sendable {
    /// The work for the library shown, and a generation that a reload advances: results of
    /// the old work (positions in the old library) are dropped, never applied to the new one.
    private let current: Mutex<(work: BackgroundWork?, generation: Int)>
    private let mailbox: Mailbox
    private let interactive = DispatchQueue(label: "bibread.interactive", qos: .userInitiated)
    private let bulk = DispatchQueue(label: "bibread.bulk", qos: .utility)
    private let index = DispatchQueue(label: "bibread.index", qos: .userInitiated)
    private let documents = DispatchQueue(label: "bibread.documents", qos: .userInitiated)
    /// Opening PDFs, each on its own: an open that hangs (a file system that stopped answering)
    /// never keeps the next PDF from opening, nor the pages of the one open.
    private let openings = DispatchQueue(label: "bibread.openings", qos: .userInitiated, attributes: .concurrent)
    private let prefetch = DispatchQueue(label: "bibread.prefetch", qos: .utility)
    private let fetches = DispatchQueue(label: "bibread.fetches", qos: .userInitiated)
    private let indexing = DispatchQueue(label: "bibread.fulltext", qos: .background)
    /// Writes of where the reader is (position, reflow or layout, reading times): one after
    /// another, never behind a page being extracted, and finished before the program exits.
    private let readingWrites = DispatchQueue(label: "bibread.reading-writes", qos: .userInitiated)
    /// Bookmarks and notes, which the screen confirms only once written: a few hundred bytes,
    /// one transaction each, never behind long work (a big library's group counts on the bulk
    /// queue kept a bookmark confirmed on screen unwritten for seconds), finished before exit.
    private let bookmarkWrites = DispatchQueue(label: "bibread.bookmark-writes", qos: .userInitiated)

    init(work: BackgroundWork?, mailbox: Mailbox) {
        current = Mutex((work, 0))
        self.mailbox = mailbox
    }

    /// Waits for the reading, bookmark and note writes asked for so far (the program is about
    /// to exit: a `t` or a page turned just before quitting is saved, not lost with the process).
    func finishReadingWrites() {
        readingWrites.sync {}
        bookmarkWrites.sync {}
    }

    /// Work for a reloaded library; what the old one still had under way reports into the void
    /// (update ignores results for groups, sorts and documents it no longer asks about).
    func replace(_ work: BackgroundWork) {
        current.withLock { $0.work?.stopIndexing() }
        current.withLock { $0 = (work, $0.generation + 1) }
        _ = mailbox.take()
    }

    /// Performs an effect on this thread and waits for it (a write that must be done before
    /// the program ends); what it reports is dropped.
    func runNow(_ effect: Effect) {
        current.withLock { $0.work }?.perform(effect) { _ in }
    }

    func run(_ effect: Effect) {
        let (maybeWork, generation) = current.withLock { $0 }
        guard let work = maybeWork else { return }
        if effect == .sync(.cancelFetch) || effect == .readingList(.cancelReadingList) {
            // At once, not behind the download it stops.
            work.cancelFetch()
            return
        }
        let queue: DispatchQueue
        switch effect {
        case .sync(.fetchFile), .sync(.syncLibrary), .readingList(.loadReadingList): queue = fetches
        case .fullText(.updateFullTextIndex): queue = indexing
        case .fullText(.searchFullText), .fullText(.loadFullTextPages), .bookmarks(.checkBookmarks): queue = interactive
        case .library(.computeGroupMembers), .library(.computeSort): queue = interactive
        case .library(.buildSearchIndex): queue = index
        case .document(.openDocument): queue = openings
        case .document(.extractPage), .document(.findInDocument): queue = documents
        case .reading: queue = readingWrites
        case .bookmarks(.addBookmark), .bookmarks(.addBookmarkFolder), .bookmarks(.renameBookmarkNode), .bookmarks(.deleteBookmarkNode), .bookmarks(.moveBookmarkNode), .bookmarks(.saveNote), .bookmarks(.loadNotes):
            queue = bookmarkWrites
        default: queue = bulk
        }
        let mailbox = self.mailbox
        let prefetch = self.prefetch
        queue.async { [self] in
            work.perform(effect) { event in
                if current.withLock({ $0.generation }) == generation { mailbox.post(event) }
            }
            // Read the next pages ahead, at low priority, so that turning the page is instant.
            if case .document(.extractPage(let path, let page, let mode)) = effect {
                prefetch.async { work.prefetch(path, after: page, mode: mode) }
            }
        }
    }
}

/// With `BIBREAD_TIMINGS` set, writes to standard error (the state folder's stderr.log while the
/// screen is up) when background results arrive and how long each input took to show.
final class LoopTiming {
    private let enabled = ProcessInfo.processInfo.environment["BIBREAD_TIMINGS"] != nil
    private let start = ContinuousClock.now
    private var inputs: [(String, ContinuousClock.Instant)] = []
    /// A key that asked for a page (or a document) and when: logged once its text is drawn.
    private var waitingForPage: (String, ContinuousClock.Instant)?
    private var pageHasArrived = false

    func milestone(_ name: String) {
        guard enabled else { return }
        log("timing: \(name) at \(LoopTiming.milliseconds(ContinuousClock.now - start)) ms")
    }

    func beginInput(_ name: String) {
        guard enabled else { return }
        inputs.append((name, ContinuousClock.now))
    }

    /// Starts the clock for a page turn or a document opening that an input asked for.
    func noteWaits(_ effects: [Effect]) {
        guard enabled, let (name, began) = inputs.last else { return }
        for effect in effects {
            switch effect {
            case .document(.openDocument): waitingForPage = ("document \(name)", began)
            case .document(.extractPage): if waitingForPage == nil { waitingForPage = ("page \(name)", began) }
            default: break
            }
        }
    }

    func pageArrived() {
        pageHasArrived = true
    }

    /// The inputs read in one go (or the page they waited for) are on screen now.
    func endInputs() {
        guard enabled else { return }
        let now = ContinuousClock.now
        if pageHasArrived, let (name, began) = waitingForPage {
            log("timing: \(name) text shown after \(LoopTiming.milliseconds(now - began)) ms")
            waitingForPage = nil
        }
        pageHasArrived = false
        guard !inputs.isEmpty else { return }
        for (name, began) in inputs { log("timing: input \(name) shown after \(LoopTiming.milliseconds(now - began)) ms") }
        inputs = []
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", value)
    }
}

extension Event {
    /// A short name for logs.
    var name: String {
        switch self {
        case .key(let key): return "key \(key)"
        case .mouse: return "mouse"
        case .resize: return "resize"
        case .groupsReady: return "field groups ready"
        case .groupCounts: return "group counts"
        case .groupMembers(let path, _): return "members of \(path)"
        case .searchIndexReady: return "search index ready"
        case .sortReady(let key, _): return "sort by \(key.rawValue) ready"
        case .marksReady: return "marks ready"
        case .documentOpened: return "document opened"
        case .documentNeedsPassword: return "document needs a password"
        case .searchResult: return "search result"
        case .tick: return "tick"
        case .readingRecorded: return "reading recorded"
        case .fetchProgress: return "fetch progress"
        case .fetchFinished: return "fetch finished"
        case .fetchFailed: return "fetch failed"
        case .syncProgress: return "sync progress"
        case .syncFinished: return "sync finished"
        case .remoteBusy: return "remote busy"
        case .libraryReloaded: return "library reloaded"
        case .pageText(_, let page, _, _): return "page \(page) text"
        case .documentFailed: return "document failed"
        case .bookmarksLoaded: return "bookmarks loaded"
        case .bookmarkFailed: return "bookmark failed"
        case .notesLoaded: return "notes loaded"
        case .readingListLoaded: return "reading list loaded"
        case .readingListProgress: return "reading list progress"
        case .readingListFailed: return "reading list failed"
        case .openWithReady: return "open-with menu ready"
        case .handlerStarted: return "handler started"
        case .handlerFinished: return "handler finished"
        case .listeningStopped: return "listening stopped"
        case .fullTextResults: return "full-text results"
        case .fullTextFailed: return "full-text search failed"
        case .fullTextPages: return "full-text pages"
        case .indexProgress: return "index progress"
        case .indexFinished: return "index finished"
        case .terminate: return "terminate"
        }
    }
}
