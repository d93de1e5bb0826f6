import BibreadTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A failure of an end-to-end step, with what the terminal showed at that moment.
struct EndToEndFailure: Error, CustomStringConvertible {
    let description: String

    init(_ message: String, screen: String? = nil) {
        if let screen {
            description = "\(message)\n--- screen ---\n\(screen)\n--------------"
        } else {
            description = message
        }
    }
}

/// A private tmux server (its own socket) running one session with one pane, driven the way a
/// user at a terminal would: keys in with `send-keys`, the screen out with `capture-pane`.
///
/// Each instance has its own socket (`tmux -L bibread-e2e-<uuid>`) and config file, so tests can
/// run in parallel and never touch a tmux server the developer is using.
struct Tmux: Sendable {
    let executable: URL
    let socket: String
    let target = "e2e"
    /// Where the server's socket file is (tmux leaves it behind after kill-server).
    var socketPath: String?

    /// How long a wait for the screen lasts before it fails. A screen that is right comes within
    /// a second here; the margin is for a machine whose two cores are shared with the rest of
    /// the suite and with other jobs (seen: 10 s ran out with three busy loops beside the suite).
    static let defaultTimeout: Duration = .seconds(20)

    /// The tmux binary; a clear failure (not a skip) when it is missing.
    static func locate() throws -> URL {
        var candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "")
            .split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("tmux") }
        candidates += [URL(fileURLWithPath: "/usr/bin/tmux"), URL(fileURLWithPath: "/usr/local/bin/tmux")]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw EndToEndFailure("""
            tmux is not installed, and the end-to-end tests of the full-screen reader need it \
            (scripts/install-deps.sh test installs it; or: apt-get install tmux)
            """)
    }

    /// Starts a detached session of `width`×`height` cells running `command` (argv, no shell).
    /// The pane stays after its program exits (`remain-on-exit`), so the exit status can be read.
    static func start(width: Int, height: Int, command: [String], in sandbox: Sandbox) async throws -> Tmux {
        var tmux = Tmux(executable: try locate(), socket: "bibread-e2e-\(UUID().uuidString)")
        let config = sandbox.root.appendingPathComponent("tmux.conf")
        try """
            set-option -g status off
            set-option -wg remain-on-exit on
            set-option -g history-limit 200
            set-option -s escape-time 0
            """.write(to: config, atomically: true, encoding: .utf8)
        let result = try await ToolRunner.run(tmux.executable.path, [
            "-L", tmux.socket, "-f", config.path,
            "new-session", "-d", "-s", tmux.target, "-x", "\(width)", "-y", "\(height)",
            "-c", sandbox.home.path, "--",
        ] + command, environment: ["TMUX": nil])
        guard result.status == 0 else {
            throw EndToEndFailure("tmux new-session failed (\(result.status)): \(result.standardError)")
        }
        tmux.socketPath = try? await tmux.format("#{socket_path}")
        return tmux
    }

    /// Runs a tmux command against this server; throws when tmux reports an error.
    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        let result = try await ToolRunner.run(executable.path, ["-L", socket] + arguments, environment: ["TMUX": nil])
        guard result.status == 0 else {
            throw EndToEndFailure("tmux \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.standardError)")
        }
        return result.output
    }

    /// Sends keys by tmux name (`j`, `Enter`, `Escape`, `Tab`, `BTab`, `C-c`, `Down`, …).
    func sendKeys(_ keys: String...) async throws {
        try await run(["send-keys", "-t", target] + keys)
    }

    /// Types text literally, one character after the other.
    func type(_ text: String) async throws {
        try await run(["send-keys", "-t", target, "-l", text])
    }

    /// The visible screen as text, one line per row (trailing blanks trimmed by tmux).
    func capture(escapes: Bool = false) async throws -> String {
        try await run(["capture-pane", "-p", "-t", target] + (escapes ? ["-e"] : []))
    }

    /// The visible screen's rows.
    func rows() async throws -> [String] {
        Tmux.rows(of: try await capture())
    }

    static func rows(of screen: String) -> [String] {
        var rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// A tmux format evaluated for the pane (`#{alternate_on}`, `#{pane_pid}`, …).
    func format(_ format: String) async throws -> String {
        try await run(["display-message", "-p", "-t", target, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(width: Int, height: Int) async throws {
        try await run(["resize-window", "-t", target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Runs the pane's command again (after it exited), with the same environment.
    func respawn() async throws {
        try await run(["respawn-pane", "-t", target])
    }

    /// The pid of the program the pane runs (the shell, or bibread when run directly).
    func panePID() async throws -> Int32 {
        guard let pid = Int32(try await format("#{pane_pid}")) else { throw EndToEndFailure("no pane pid") }
        return pid
    }

    /// Whether the pane's program has exited, and its exit status (128 + the signal when a
    /// signal ended it). tmux sees the pane's terminal close before it reaps the process, so
    /// this stays nil until the status itself is known.
    ///
    /// Debian's tmux is built with libutempter, which swaps in its own SIGCHLD handler while it
    /// removes the pane's utmp record; a program that exits just then is never reaped and the
    /// pane stays dead with no status (tmux/tmux#311). So when the pane is dead without a
    /// status, nudge the server (ours, on our own socket) with a SIGCHLD.
    func exitStatus() async throws -> Int32? {
        let fields = try await format("#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}|#{pid}")
            .split(separator: "|", omittingEmptySubsequences: false)
        guard fields.count == 4, fields[0] == "1" else { return nil }
        if let status = Int32(fields[1]) { return status }
        if let signal = Int32(fields[2]) { return 128 + signal }
        if let server = Int32(fields[3]), server > 1 { Glibc.kill(server, SIGCHLD) }
        return nil
    }

    /// Stops the server and everything running in it.
    func kill() async {
        _ = try? await ToolRunner.run(executable.path, ["-L", socket, "kill-server"], environment: ["TMUX": nil])
        if let socketPath, socketPath.hasSuffix("/\(socket)") { unlink(socketPath) }
    }

    /// Polls the screen until `predicate` holds (every 50 ms, up to `timeout`); returns that
    /// screen, or fails naming `expectation` with the last screen captured.
    ///
    /// With `settled` (the default) the screen must also have stopped changing: two captures
    /// in a row, 50 ms apart, are identical. A capture can land while the program is halfway
    /// through drawing a frame, and what the caller checks next must not see half a frame.
    @discardableResult
    func waitUntil(_ expectation: String, timeout: Duration = Tmux.defaultTimeout, settled: Bool = true,
                   _ predicate: (String) async throws -> Bool) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: TestTiming.duration(timeout))
        var screen = ""
        var previous: String?
        while true {
            screen = try await capture()
            if try await predicate(screen) {
                if !settled || screen == previous { return screen }
                previous = screen
            } else {
                previous = nil
            }
            if clock.now >= deadline { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let size = (try? await format("#{pane_width}×#{pane_height}")) ?? "?"
        throw EndToEndFailure("timed out after \(timeout) waiting for \(expectation) (pane \(size))", screen: screen)
    }

    /// Polls until every one of `texts` is on the screen.
    @discardableResult
    func waitFor(_ texts: String..., timeout: Duration = Tmux.defaultTimeout) async throws -> String {
        try await waitUntil(texts.map { "“\($0)”" }.joined(separator: " and "), timeout: timeout) { screen in
            texts.allSatisfy(screen.contains)
        }
    }

    /// Polls until the pane's program has exited; returns its exit status.
    func waitForExit(timeout: Duration = Tmux.defaultTimeout) async throws -> Int32 {
        var status: Int32?
        try await waitUntil("the program in the pane to exit", timeout: timeout, settled: false) { _ in
            status = try await exitStatus()
            return status != nil
        }
        return status ?? -1
    }

    /// Polls until a tmux format has the expected value (for example `#{alternate_on}` is `0`).
    func waitForFormat(_ format: String, toBe expected: String, timeout: Duration = Tmux.defaultTimeout) async throws {
        var last = ""
        do {
            try await waitUntil("\(format) to be “\(expected)”", timeout: timeout, settled: false) { _ in
                last = try await self.format(format)
                return last == expected
            }
        } catch let failure as EndToEndFailure {
            throw EndToEndFailure("\(failure.description)\n(\(format) was “\(last)”)")
        }
    }
}

/// Fresh directories for one test: XDG state and config, HOME, and the tmux config.
struct Sandbox: Sendable {
    let root: URL
    var state: URL { root.appendingPathComponent("state") }
    var config: URL { root.appendingPathComponent("config") }
    var home: URL { root.appendingPathComponent("home") }

    init() throws {
        root = try Fixtures.temporaryDirectory()
        for directory in [state, config, home] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// The environment every program in the pane gets: this sandbox's XDG directories and
    /// HOME, a known terminal type and a UTF-8 locale, and nothing that would override the
    /// terminal's size (LINES, COLUMNS) or colours (NO_COLOR) unless asked for.
    func environment(_ extra: [String: String] = [:]) -> [String] {
        var variables = [
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "XDG_STATE_HOME": state.path,
            "XDG_CONFIG_HOME": config.path,
            "HOME": home.path,
            "SWIFT_BACKTRACE": "enable=no",
        ]
        for (key, value) in extra { variables[key] = value }
        let unset = ["LINES", "COLUMNS", "NO_COLOR", "LC_ALL", "TMUX", "TMUX_PANE"].filter { variables[$0] == nil }
        return ["/usr/bin/env"] + unset.flatMap { ["-u", $0] } + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// The environment changes for a second bibread run beside the pane's (`ToolRunner.run`):
    /// this sandbox's state and config, and no COLUMNS, so that it shares the reader's store.
    var sideEnvironment: [String: String?] {
        ["XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": config.path, "COLUMNS": nil]
    }

    /// argv that runs bibread directly in the pane.
    func bibread(_ arguments: [String], environment extra: [String: String] = [:]) -> [String] {
        environment(extra) + [ProcessRunner.bibreadExecutable.path] + arguments
    }

    /// argv that runs a bare interactive bash (no rc files) with the prompt `$ `.
    func shell() -> [String] {
        environment(["PS1": "$ "]) + ["bash", "--norc", "--noprofile"]
    }
}

/// Processes, read from /proc.
enum Processes {
    /// The state letter from /proc/PID/stat (`R`, `S`, `Z`, …), the parent pid and the name.
    static func status(of pid: Int32) -> (state: Character, parent: Int32, name: String)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let name = String(stat[stat.index(after: open)..<close])
        let rest = stat[stat.index(after: close)...].split(separator: " ")
        guard rest.count >= 2, let state = rest[0].first, let parent = Int32(rest[1]) else { return nil }
        return (state, parent, name)
    }

    /// The files and memory `pid` has mapped (/proc/PID/maps), read to its end: the file's size
    /// says 0, and a read sized by it gets only a part.
    static func maps(of pid: Int32) throws -> String {
        let descriptor = open("/proc/\(pid)/maps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw EndToEndFailure("cannot read /proc/\(pid)/maps: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The CPU time `pid` has used so far, in clock ticks (user and system, from /proc/PID/stat).
    static func cpuTicks(of pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the name: state (field 3) … utime (14) and stime (15).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Waits until `pid` is idle: it used less than 20 ms of CPU in 300 ms (its background work
    /// is done), or `timeout` passed.
    static func waitUntilIdle(_ pid: Int32, timeout: Duration = Tmux.defaultTimeout) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: TestTiming.duration(timeout))
        var last = cpuTicks(of: pid)
        while clock.now < deadline {
            try await Task.sleep(for: .milliseconds(300))
            let now = cpuTicks(of: pid)
            if let now, let before = last, now - before < 2 { return }
            last = now
        }
        throw EndToEndFailure("pid \(pid) was still busy after \(timeout)")
    }

    /// How long `pid` took to end, from `start`; nil (and then it is killed) when it still ran
    /// after `limit`.
    static func timeToEnd(_ pid: Int32, since start: ContinuousClock.Instant, limit: Duration) async throws -> Duration? {
        let clock = ContinuousClock()
        while isRunning(pid) && clock.now - start < limit {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard isRunning(pid) else { return clock.now - start }
        kill(pid, SIGKILL)
        return nil
    }

    /// Whether `pid` is a live process (a zombie counts as gone).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let status = status(of: pid) else { return false }
        return status.state != "Z" && status.state != "X"
    }

    /// The live children of `parent` named `name`.
    static func children(of parent: Int32, named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let status = status(of: pid) else { return false }
            return status.parent == parent && status.name == name && status.state != "Z"
        }
    }
}
