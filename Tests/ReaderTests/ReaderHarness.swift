import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import OpenWith
@testable import Reader

/// Drives the pure reader the way the app does, with background work run inline: every effect
/// is performed at once and its events applied, until nothing is left to do.
struct ReaderHarness {
    var state: AppState
    let work: BackgroundWork
    private(set) var savedSessions = 0

    /// A fixed "now", so that date groups (Recently added) count the same on every run.
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// Where a harness keeps its full-text index: nil (the default) leaves the index alone
    /// (indexing is skipped), so that only the tests about it read PDFs into one, each its own.
    let fullTextURL: URL?

    init(library: Library, paths: [String] = ["library.bib"], width: Int, height: Int, keymap: Keymap = Keymap(),
         store: ReadingStore? = nil, fullTextURL: URL? = nil) {
        self.fullTextURL = fullTextURL
        state = AppState(library: library, paths: paths, width: width, height: height, keymap: keymap)
        state.groups = GroupCatalog.savedGroups(of: library)
        work = BackgroundWork(library: library, groups: state.groups, store: store,
                              now: ReaderHarness.now,
                              fullTextURL: fullTextURL ?? URL(fileURLWithPath: "/nonexistent/bibread-test/fulltext.sqlite"))
        run(state.start())
    }

    /// The sample library.
    static func samples(width: Int = 120, height: Int = 40, store: ReadingStore? = nil, fullTextURL: URL? = nil) -> ReaderHarness {
        ReaderHarness(library: Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib")), width: width, height: height,
                      store: store, fullTextURL: fullTextURL)
    }

    /// Opens the PDF of the reference with `key` in the reading view.
    mutating func read(_ key: String) {
        press("/")
        type("key:\(key)")
        press("Enter", "Enter")
    }

    /// Where the "open with" menu looks for apps (a test's folder of stand-ins), and the
    /// handler effects the state asked for (the app's loop would run them).
    var handlerPath = ""
    private(set) var handlerEffects: [Effect] = []

    mutating func run(_ effects: [Effect]) {
        var pending = effects
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            if effect == .app(.saveSession) { savedSessions += 1 }
            var events: [Event] = []
            switch effect {
            case .handlers(.prepareOpenWith(let intention, let values)):
                let registry = HandlerRegistry.load(user: nil, userPath: "config.toml").registry
                events.append(.openWithReady(intention: intention, items: registry.menu(for: intention, available: values.available,
                                                                                         path: handlerPath, environment: [:])))
            case .handlers(.runHandler), .handlers(.copyToClipboard), .handlers(.stopListening):
                handlerEffects.append(effect)
            case .fullText:
                if fullTextURL == nil { continue }
            default:
                break
            }
            work.perform(effect) { events.append($0) }
            for event in events { pending += state.update(event) }
        }
    }

    mutating func send(_ event: Event) {
        run(state.update(event))
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
