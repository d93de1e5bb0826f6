import BibModel
import BibreadServices
import Foundation
import OpenWith
import ReaderCore

/// The loop's own effects in the app: the session in `state.json`, the apps run by
/// `HandlerRunner` (a pager in the terminal, the screen left meanwhile), the library read again.
final class AppLoopEffects: LoopEffects {
    private let sessions: SessionStore
    private let paths: [String]
    private let handlers: HandlerRunner
    private let screen: CursesScreen
    private let terminalKind: TerminalKind
    private let makeWork: (Library) -> BackgroundWork
    /// Told when the library was read again (the watcher notes the files as read).
    var afterReload: () -> Void = {}

    init(sessions: SessionStore, paths: [String], handlers: HandlerRunner, screen: CursesScreen, terminalKind: TerminalKind,
         makeWork: @escaping (Library) -> BackgroundWork) {
        self.sessions = sessions
        self.paths = paths
        self.handlers = handlers
        self.screen = screen
        self.terminalKind = terminalKind
        self.makeWork = makeWork
    }

    func saveSession(of state: AppState) -> StatusMessage? {
        guard state.library != nil else { return nil }
        let session = state.sessionToSave(previous: sessions.session(for: paths))
        do {
            try sessions.save(session, for: paths)
            return nil
        } catch {
            return StatusMessage("\(error)", isError: true)
        }
    }

    func perform(_ effect: HandlerEffect) -> Event? {
        switch effect {
        case .prepareOpenWith(let intention, let values):
            handlers.prepareMenu(intention: intention, values: values)
        case .runHandler(let entry, let executable, let values) where entry.style == .terminal:
            // A pager takes the terminal: leave the screen, run it, come back.
            var failure: String?
            screen.runOutside {
                TerminalGuard.withStandardErrorRestored {
                    failure = handlers.runInTerminal(entry, executable: executable, values: values)
                }
            }
            if let failure { return .handlerFinished(message: failure, isError: true) }
        case .runHandler(let entry, let executable, let values):
            handlers.run(entry, executable: executable, values: values, terminal: terminalKind)
        case .stopListening:
            handlers.stopListening()
        case .copyToClipboard(let text, let what):
            handlers.copy(text, what: what, terminal: terminalKind)
        }
        return nil
    }

    func editInEditor(_ text: EntryText) -> Event {
        var result: (edited: String?, problem: String?) = (nil, nil)
        screen.runOutside {
            TerminalGuard.withStandardErrorRestored {
                result = EntryEditorSession.run(text, environment: ProcessInfo.processInfo.environment)
            }
        }
        return .entryTextEdited(text, edited: result.edited, problem: result.problem)
    }

    func reloadLibrary() -> (library: Library, work: BackgroundWork)? {
        let (reloaded, _) = LibraryLoader.load(paths: paths)
        afterReload()
        return (reloaded, makeWork(reloaded))
    }
}
