import BibModel
import BibreadValues
import Foundation
import OpenWith
import ReaderCore

/// Runs the apps of the "open with" menu and the clipboard: argv only, never a shell; the app
/// reading aloud is kept so that it can be stopped.
final class HandlerRunner: @unchecked Sendable {
    private let registry: HandlerRegistry
    private let environment: [String: String]
    private let post: @Sendable (Event) -> Void
    private let lock = NSLock()
    private var speaking: LaunchedProcess?
    private let queue = DispatchQueue(label: "bibread.handlers", qos: .userInitiated)

    init(registry: HandlerRegistry, environment: [String: String] = ProcessInfo.processInfo.environment,
         post: @escaping @Sendable (Event) -> Void) {
        self.registry = registry
        self.environment = environment
        self.post = post
    }

    private var path: String { environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin" }

    /// Works out the menu (which apps are installed) for `values`.
    func prepareMenu(intention: Intention?, values: HandlerValues) {
        post(.openWithReady(intention: intention, items: registry.menu(for: intention, available: values.available, path: path,
                                                                       environment: environment)))
    }

    /// Runs an entry: a viewer detached, a clipboard tool waited for (in the background), a
    /// reader-aloud kept until stopped. Terminal entries go through `runInTerminal`.
    func run(_ entry: HandlerEntry, executable: String?, values: HandlerValues, terminal: TerminalKind) {
        if entry.style == .osc52 {
            copyByEscapeSequence(entry: entry, values: values, terminal: terminal)
            return
        }
        queue.async { [self] in
            do {
                let command = try prepare(entry, executable: executable, values: values)
                let process = try Launcher.spawn(command, style: entry.style)
                switch entry.style {
                case .background:
                    let previous = lock.withLock { () -> LaunchedProcess? in
                        defer { speaking = process }
                        return speaking
                    }
                    _ = previous?.stop()
                    post(.handlerStarted(name: entry.name, background: true))
                    let started = ContinuousClock.now
                    DispatchQueue.global().async { [self] in
                        let end = process.waitUntilExit()
                        let stillCurrent = lock.withLock { () -> Bool in
                            guard speaking === process else { return false }
                            speaking = nil
                            return true
                        }
                        if stillCurrent {
                            post(.listeningStopped(message: Self.endedByItself(entry.name, end, after: ContinuousClock.now - started)))
                        }
                    }
                case .quick:
                    let end = process.waitUntilExit()
                    post(.handlerFinished(message: end.succeeded ? "Done: \(entry.name)" : "\(entry.name) failed: \(end)", isError: !end.succeeded))
                default:
                    post(.handlerStarted(name: entry.name, background: false))
                }
            } catch {
                post(.handlerFinished(message: "\(entry.name): \(error)", isError: true))
            }
        }
    }

    /// What to say when an app of the background style ends without being stopped: that it
    /// ended, after how long and how, and nothing more. Whether it read anything aloud is not
    /// known (an app that exits at once with status 0 read nothing: it was "Finished reading
    /// aloud").
    static func endedByItself(_ name: String, _ end: Termination, after duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let time = seconds < 10 ? String(format: "%.1f s", seconds) : seconds < 120 ? "\(Int(seconds)) s"
            : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
        return "\(name) ended by itself after \(time)\(end.succeeded ? "" : " (\(end))")"
    }

    /// Runs a terminal entry (a pager) in the foreground; the caller has left the screen.
    func runInTerminal(_ entry: HandlerEntry, executable: String?, values: HandlerValues) -> String? {
        do {
            let command = try prepare(entry, executable: executable, values: values)
            let end = try Launcher.spawn(command, style: .terminal).waitUntilExit()
            return end.succeeded ? nil : "\(entry.name) ended: \(end)"
        } catch {
            return "\(entry.name): \(error)"
        }
    }

    /// Stops the app reading aloud.
    func stopListening() {
        let process = lock.withLock { () -> LaunchedProcess? in
            defer { speaking = nil }
            return speaking
        }
        guard let process else { return }
        queue.async { [self] in
            _ = process.stop()
            post(.listeningStopped(message: "Stopped reading aloud"))
        }
    }

    /// Stops what still runs, when the reader quits.
    func stopAll() {
        let process = lock.withLock { speaking }
        _ = process?.stop(gracePeriod: 0.5)
    }

    /// `y`: the terminal's clipboard by OSC 52 (works over SSH), and the desktop's clipboard
    /// tool when there is a desktop session and one is installed.
    func copy(_ text: String, what: String, terminal: TerminalKind) {
        var ways: [String] = []
        do {
            try OSC52.copy(text, terminal: terminal, to: STDOUT_FILENO)
            ways.append("terminal clipboard")
        } catch {
            post(.handlerFinished(message: "Cannot copy \(what): \(error)", isError: true))
            return
        }
        let desktop = environment["WAYLAND_DISPLAY"] != nil || environment["DISPLAY"] != nil
        let tool = desktop ? registry.entries(for: .cite).first { entry in
            entry.style == .quick && entry.standardInput == "{link}" && Launcher.resolveProgram(of: entry, path: path, environment: environment) != nil
        } : nil
        guard let tool, let executable = Launcher.resolveProgram(of: tool, path: path, environment: environment) else {
            post(.handlerFinished(message: "Copied \(what) (\(ways.joined())): \(text)", isError: false))
            return
        }
        let viaTerminal = ways
        queue.async { [self] in
            var values = HandlerValues()
            values[.link] = text
            var all = viaTerminal
            if let command = try? prepare(tool, executable: executable, values: values),
               let end = try? Launcher.spawn(command, style: .quick).waitUntilExit(), end.succeeded {
                all.append(tool.argv.first ?? tool.name)
            }
            post(.handlerFinished(message: "Copied \(what) (\(all.joined(separator: " + "))): \(text)", isError: false))
        }
    }

    private func copyByEscapeSequence(entry: HandlerEntry, values: HandlerValues, terminal: TerminalKind) {
        do {
            let text = try CommandBuilder.standardInputText(for: entry, values: values) ?? ""
            try OSC52.copy(text, terminal: terminal, to: STDOUT_FILENO)
            post(.handlerFinished(message: "\(entry.name): done (terminal clipboard)", isError: false))
        } catch {
            post(.handlerFinished(message: "\(entry.name): \(error)", isError: true))
        }
    }

    private func prepare(_ entry: HandlerEntry, executable: String?, values: HandlerValues) throws -> PreparedCommand {
        guard let program = executable ?? Launcher.resolveProgram(of: entry, path: path, environment: environment) else {
            throw LaunchError.notFound(entry.argv.first ?? entry.name)
        }
        return try CommandBuilder.command(for: entry, values: values, executable: program)
    }
}
