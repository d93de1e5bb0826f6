import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import OpenWith
import SyncEngine
import Testing
@testable import Reader
@testable import ReaderCore

/// Drives the reader's real loop (`ReaderLoop`: its dispatch, its effect routes) with scripted
/// input, its background queues run inline: every effect is performed at once and its events
/// applied, until nothing is left to do.
///
/// A harness is a value, as the state is: a copy (`var search = library`) goes on from where the
/// original was without changing it (its loop is copied on the first change; the background
/// work, which keeps nothing of the screen, is shared).
struct ReaderHarness {
    private var loop: ReaderLoop
    private var terminal = ScriptedTerminal()
    private var recorder: RecordingLoopEffects
    let work: BackgroundWork

    /// The state of the loop (tests read it, and set it up).
    var state: AppState {
        get { loop.state }
        set {
            makeUnique()
            loop.state = newValue
        }
    }

    /// Gives this copy a loop of its own (with the state, and what was recorded, so far) before
    /// it changes anything, when another copy shares the loop.
    private mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&loop) else { return }
        let recording = RecordingLoopEffects(copying: recorder)
        let mailbox = Mailbox(wakeDescriptor: -1)
        loop = ReaderLoop(state: loop.state, runner: EffectRunner(work: work, mailbox: mailbox, queues: InlineJobQueues(),
                                                                  editWriter: loop.runner.editWriter),
                          mailbox: mailbox, effects: recording)
        recorder = recording
        terminal = ScriptedTerminal()
    }

    /// How many times the state asked for the session to be saved.
    var savedSessions: Int { recorder.savedSessions }

    /// A fixed "now", so that date groups (Recently added) count the same on every run.
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// `editState`: where edits keep the versions before them (for undo); by default a folder
    /// of the harness's own under the temporary folder, made on the first edit.
    /// `environment`: where synced remotes' folders are (their journals), for a synced library
    /// (`synced`); by default the process's.
    init(library: Library, paths: [String] = ["library.bib"], width: Int, height: Int, keymap: Keymap = Keymap(),
         store: ReadingStore? = nil, fullTextURL: URL? = nil, editState: URL? = nil,
         environment: [String: String] = ProcessInfo.processInfo.environment, synced: Bool = false) {
        var state = AppState(library: library, paths: paths, width: width, height: height, keymap: keymap)
        state.librarySynced = synced
        state.groups = GroupCatalog.savedGroups(of: library, synced: LinkedFileLocator.shared.isSynced(library))
        // Without a folder of its own (the default) the full-text index is left alone (indexing
        // is skipped), so that only the tests about it read PDFs into one, each its own.
        work = BackgroundWork(library: library, groups: state.groups, store: store, now: ReaderHarness.now, fullTextURL: fullTextURL,
                              environment: environment)
        let mailbox = Mailbox(wakeDescriptor: -1)
        recorder = RecordingLoopEffects()
        let history = editState ?? FileManager.default.temporaryDirectory.appendingPathComponent("bibread-harness-\(UUID().uuidString)")
        let editWriter = LibraryEditWriter(writer: LibraryFileWriter(state: history), environment: environment)
        loop = ReaderLoop(state: state, runner: EffectRunner(work: work, mailbox: mailbox, queues: InlineJobQueues(), editWriter: editWriter),
                          mailbox: mailbox, effects: recorder)
        run(loop.state.start())
    }

    /// The sample library, `Samples/library.bib` itself: for tests that do not edit (the
    /// harness fails a test whose edit reaches it, and puts it back).
    static func samples(width: Int = 120, height: Int = 40, store: ReadingStore? = nil, fullTextURL: URL? = nil) -> ReaderHarness {
        ReaderHarness(library: Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib")), width: width, height: height,
                      store: store, fullTextURL: fullTextURL)
    }

    /// A copy of the sample library for tests whose edits are written: `library.bib` copied to a
    /// folder of its own, beside links to the rest of `Samples/` (its PDFs).
    static func samplesCopy(width: Int = 120, height: Int = 40) -> ReaderHarness {
        let bib = sampleCopy()
        return ReaderHarness(library: Fixtures.library(at: bib), paths: [bib.path], width: width, height: height)
    }

    /// A fresh copy of the sample library (see `samplesCopy`).
    static func sampleCopy() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-samples-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.samples.path) where name != "library.bib" {
                try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name),
                                                           withDestinationURL: Fixtures.samples.appendingPathComponent(name))
            }
            try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("library.bib"),
                                             to: folder.appendingPathComponent("library.bib"))
        } catch {
            fatalError("cannot copy the sample library to \(folder.path): \(error)")
        }
        return folder.appendingPathComponent("library.bib")
    }

    /// The sample library's bytes as the test process found them.
    private static let sampleBytes = try? Data(contentsOf: Fixtures.samples.appendingPathComponent("library.bib"))

    /// Fails the test and puts `Samples/library.bib` back when an edit reached it.
    private func guardSamples() {
        let url = Fixtures.samples.appendingPathComponent("library.bib")
        guard let original = Self.sampleBytes, let now = try? Data(contentsOf: url), now != original else { return }
        try? original.write(to: url, options: .atomic)
        Issue.record("an edit reached the repository's Samples/library.bib (put back): use ReaderHarness.samplesCopy()")
    }

    /// Opens the PDF of the reference with `key` in the reading view.
    mutating func read(_ key: String) {
        press("/")
        type("key:\(key)")
        press("Enter", "Enter")
    }

    /// Where the "open with" menu looks for apps (a test's folder of stand-ins).
    var handlerPath: String {
        get { recorder.handlerPath }
        set {
            makeUnique()
            recorder.handlerPath = newValue
        }
    }

    /// What `$EDITOR` does with an entry's text in this harness (a test's script).
    var editor: (EntryText) -> String? {
        get { recorder.editor }
        set {
            makeUnique()
            recorder.editor = newValue
        }
    }

    /// The texts `$EDITOR` was opened on.
    var editorTexts: [EntryText] { recorder.editorTexts }

    /// How the loop reads the library again (`R`, a change on disk, after an undo); by default
    /// it reads nothing.
    var reload: (() -> (library: Library, work: BackgroundWork)?)? {
        get { recorder.reload }
        set {
            makeUnique()
            recorder.reload = newValue
        }
    }

    /// The handler effects the state asked for (the app's loop would run them).
    var handlerEffects: [Effect] { recorder.handlerEffects.map { .handlers($0) } }

    /// Performs effects through the loop, and what they cause, until nothing is left to do.
    mutating func run(_ effects: [Effect]) {
        makeUnique()
        loop.ask(effects)
        settle()
    }

    /// Hands an event to the loop as input.
    mutating func send(_ event: Event) {
        makeUnique()
        terminal.script.append(event)
        settle()
    }

    /// Steps the loop until the script is read, no effect waits and no result is posted.
    private func settle() {
        repeat {
            loop.performPending()
            _ = loop.receive(from: terminal, waiter: AlwaysReady())
        } while !loop.pending.isEmpty || !loop.mailbox.isEmpty || !terminal.script.isEmpty
        guardSamples()
    }

    /// Presses keys written as in config.toml (`j`, `Down`, `C-d`), or typed text when `text`.
    mutating func press(_ names: String...) {
        for name in names {
            guard let key = Key(name: name) else { fatalError("no key named \(name)") }
            send(.key(key))
        }
    }

    mutating func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    var screen: String { state.render().text }
}

/// Input for the loop from a script; nothing is drawn (`ReaderHarness.screen` renders on demand).
final class ScriptedTerminal: ReaderTerminal {
    var script: [Event] = []
    var size: (width: Int, height: Int) { (80, 24) }
    func draw(_ buffer: ScreenBuffer) {}
    func invalidate() {}
    func suspend() {}

    func nextInput() -> Event? {
        script.isEmpty ? nil : script.removeFirst()
    }
}

/// A clock that never waits: stepping the loop is the test's.
struct AlwaysReady: LoopWaiter {
    func wait() -> LoopWake { .ready }
}

/// Every background queue run on the caller's thread, at once.
struct InlineJobQueues: JobQueues {
    func async(on queue: WorkQueue, _ work: @escaping @Sendable () -> Void) { work() }
    func finish(_ queue: WorkQueue) {}
}

/// The loop's own effects, recorded: sessions counted, handlers kept (the "open with" menu
/// worked out from the built-in registry and `handlerPath`), no library read again.
final class RecordingLoopEffects: LoopEffects {
    var savedSessions = 0
    var handlerPath = ""
    var handlerEffects: [HandlerEffect] = []

    init() {}

    /// A recorder that goes on from what `other` recorded.
    init(copying other: RecordingLoopEffects) {
        savedSessions = other.savedSessions
        handlerPath = other.handlerPath
        handlerEffects = other.handlerEffects
        reload = other.reload
        editor = other.editor
        editorTexts = other.editorTexts
    }

    func saveSession(of state: AppState) -> StatusMessage? {
        savedSessions += 1
        return nil
    }

    func perform(_ effect: HandlerEffect) -> Event? {
        switch effect {
        case .prepareOpenWith(let intention, let values):
            let registry = HandlerRegistry.load(user: nil, userPath: "config.toml").registry
            return .openWithReady(intention: intention, items: registry.menu(for: intention, available: values.available,
                                                                            path: handlerPath, environment: [:]))
        case .runHandler, .copyToClipboard, .stopListening:
            handlerEffects.append(effect)
            return nil
        }
    }

    /// Reads the library's files again when set (tests of reloads); nil: nothing is read.
    var reload: (() -> (library: Library, work: BackgroundWork)?)?
    /// What `$EDITOR` does with an entry's text: the text saved (a test's script).
    var editor: (EntryText) -> String? = { $0.text }
    /// The texts the editor was opened on.
    var editorTexts: [EntryText] = []

    func reloadLibrary() -> (library: Library, work: BackgroundWork)? { reload?() }

    func editInEditor(_ text: EntryText) -> Event {
        editorTexts.append(text)
        return .entryTextEdited(text, edited: editor(text), problem: nil)
    }
}
