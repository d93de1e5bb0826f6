import Foundation
import ReaderCore
/// The event loop: hands terminal input and background results to `update`, performs the
/// effects it returns (its own at once, the rest through `EffectRunner`, where their routes
/// say) and draws. The app runs it with curses and `poll`; tests step the same loop with a
/// scripted terminal and queues run inline.
final class ReaderLoop {
    var state: AppState
    /// Effects asked for and not yet performed: they are performed before the next screen.
    private(set) var pending: [Effect] = []
    /// False once an effect said quit.
    private(set) var isRunning = true
    /// True when the loop ended with edits still being written after `writeWait`.
    private(set) var unfinishedWrites = false
    private var needsFullRedraw = false
    let runner: EffectRunner
    let mailbox: Mailbox
    private let effects: any LoopEffects
    private let timing: LoopTiming

    init(state: AppState, runner: EffectRunner, mailbox: Mailbox, effects: any LoopEffects, timing: LoopTiming = LoopTiming()) {
        self.state = state
        self.runner = runner
        self.mailbox = mailbox
        self.effects = effects
        self.timing = timing
    }

    /// Adds effects to perform before the next screen.
    func ask(_ effects: [Effect]) {
        pending += effects
    }

    /// Performs the effects asked for, in order, with those that the loop's own effects cause.
    func performPending() {
        while !pending.isEmpty {
            let effect = pending.removeFirst()
            switch effect {
            case .app(let app):
                perform(app)
            case .handlers(let handler):
                if let event = effects.perform(handler) { pending += state.update(event) }
            case .library, .document, .reading, .bookmarks, .readingList, .sync, .fullText, .editing:
                runner.run(effect, quitting: state.isQuitting)
            }
        }
    }

    private func perform(_ effect: AppEffect) {
        switch effect {
        case .quit:
            isRunning = false
        case .saveSession:
            if let problem = effects.saveSession(of: state) { state.message = problem }
        case .redrawAll:
            needsFullRedraw = true
        case .editInEditor(let text):
            // The editor has the terminal meanwhile; the screen is drawn anew after.
            pending += state.update(effects.editInEditor(text))
            needsFullRedraw = true
        case .reloadLibrary:
            // A sync brought a new .bib: read it again and start the background work anew.
            guard let (library, work) = effects.reloadLibrary() else { return }
            runner.replace(work)
            pending += state.update(.libraryReloaded(library))
        }
    }

    /// Draws the state (all of it after `redrawAll`).
    func draw(on terminal: some ReaderTerminal) {
        if needsFullRedraw {
            terminal.invalidate()
            needsFullRedraw = false
        }
        terminal.draw(state.render())
        timing.endInputs()
    }

    /// Waits for what comes next and hands it to `update`: the idle tick, the end (a signal, a
    /// terminal gone), the background results posted, then the input waiting. False when
    /// waiting failed and the loop must end.
    func receive(from terminal: some ReaderTerminal, waiter: some LoopWaiter) -> Bool {
        switch waiter.wait() {
        case .failed:
            return false
        case .idle:
            pending += state.update(.tick)
            return true
        case .signalled, .hungUp:
            // Save and leave.
            pending += state.update(.terminate)
            return true
        case .ready:
            break
        }
        for event in mailbox.take() {
            timing.milestone(event.name)
            if case .pageText = event { timing.pageArrived() }
            pending += state.update(event)
        }
        // A resize arrives as input (ncurses turns SIGWINCH into KEY_RESIZE).
        var inputs = 0
        while inputs < 512, let event = terminal.nextInput() {
            if case .key(let key) = event, state.keymap.action(for: key, in: .everywhere) == .suspend {
                terminal.suspend()
                let size = terminal.size
                pending += state.update(.resize(width: size.width, height: size.height))
                continue
            }
            timing.beginInput(event.name)
            let caused = state.update(event)
            timing.noteWaits(caused)
            pending += caused
            inputs += 1
        }
        return true
    }

    /// Runs until an effect says quit (or waiting fails), then waits for the writes that must
    /// outlive the loop.
    func run(on terminal: some ReaderTerminal, waiter: some LoopWaiter) {
        while true {
            performPending()
            guard isRunning else { break }
            draw(on: terminal)
            guard receive(from: terminal, waiter: waiter) else { break }
        }
        runner.finishReadingWrites()
        unfinishedWrites = !runner.finishLibraryWrites(timeout: ReaderLoop.writeWait)
    }

    /// How long the reader waits, once quitting, for edits still being written.
    static let writeWait: TimeInterval = 30
}
