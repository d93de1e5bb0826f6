import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A test server that could not be started or controlled; the description carries the server's
/// log when there is one.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

/// A long-running child (a server, or the supervisor running one) started with `posix_spawn`.
///
/// The test code starts every child process here or in `ToolRunner` (which shares the spawning
/// below), not with `Foundation.Process` (or `ProcessRunner`, which wraps it), for two reasons:
/// - A child started from a test inherits the signal mask of the Dispatch worker thread that
///   started it, which blocks SIGINT, SIGTERM and SIGHUP. A tmux server started that way passes
///   the mask on to the programs in its panes, and then signals sent to bibread never arrive; a
///   server would ignore the SIGTERM that stops it. `posix_spawn` with `POSIX_SPAWN_SETSIGMASK`
///   starts the child with nothing blocked, and `POSIX_SPAWN_SETSIGDEF` with default handlers.
/// - `Process.waitUntilExit` blocks its thread, and Foundation finishes a process's termination
///   on a global Dispatch queue: on a 2-core machine two parallel tests blocked that way take
///   the whole cooperative pool and never wake up. Here every wait is bounded and polled
///   (`ToolRunner` polls `waitpid(WNOHANG)` with `Task.sleep`).
///
/// The child leads a new process group, so that `stop()` can sweep up whatever it started
/// (lighttpd's log pipe, sshd's sessions); file descriptors other than 0-2 are not inherited,
/// so a server cannot hold open the pipes of programs other tests are running.
public final class ServerProcess: @unchecked Sendable {
    public let pid: pid_t
    public let executable: String
    public let logPath: String
    private let lock = NSLock()
    private var reapedStatus: Int32?

    private init(pid: pid_t, executable: String, logPath: String) {
        self.pid = pid
        self.executable = executable
        self.logPath = logPath
    }

    deinit { stop() }

    /// Starts `executable` (an absolute path, or a name looked up in PATH) with standard input
    /// from `inputPath` (else /dev/null) and standard error appended to `logPath`; standard
    /// output is appended to `outputPath`, or to `logPath` too when there is none.
    public static func spawn(_ executable: String, _ arguments: [String], logPath: String, outputPath: String? = nil,
                             inputPath: String? = nil,
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath ?? "/dev/null", O_RDONLY, 0)
        if let outputPath {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        cleanSignalState(&attributes)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let pid = try spawn(executable, arguments, environment: environment, actions: &actions, attributes: &attributes)
        return ServerProcess(pid: pid, executable: executable, logPath: logPath)
    }

    /// Whether the child has exited (without reaping it, so that its process group id cannot be
    /// reused before `stop()` sweeps the group).
    public var hasExited: Bool {
        lock.lock()
        defer { lock.unlock() }
        return exitedLocked()
    }

    /// The child's exit as a shell reports it, once stopped: the code, or 128 + the signal.
    public var exitStatus: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return reapedStatus.map(ServerProcess.shellStatus)
    }

    /// SIGTERM, up to `grace` seconds to exit, then SIGKILL for the whole process group; reaps
    /// the child. Safe to call more than once.
    public func stop(grace: TimeInterval = 3) {
        lock.lock()
        defer { lock.unlock() }
        if reapedStatus != nil { return }
        if !exitedLocked() {
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(grace)
            while !exitedLocked() && Date() < deadline { usleep(10_000) }
        }
        // The child is not reaped yet, so the group id is still ours: sweep the group.
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reapedStatus = status
    }

    private func exitedLocked() -> Bool {
        if reapedStatus != nil { return true }
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        if result < 0 { return errno == ECHILD }
        return info.si_signo == SIGCHLD
    }

    static func shellStatus(_ status: Int32) -> Int32 {
        status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    // MARK: Shared with ToolRunner

    /// The child starts with no signal blocked and the usual signals at their default action.
    static func cleanSignalState(_ attributes: inout posix_spawnattr_t) {
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2,
                       SIGTSTP, SIGTTIN, SIGTTOU, SIGWINCH] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np(actions, 3)`, looked up at run
    /// time (the Glibc module does not declare it); without it descriptors are inherited.
    static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        guard let symbol = closeFromSymbol else { return }
        let addCloseFrom = unsafeBitCast(symbol, to: AddCloseFrom.self)
        _ = addCloseFrom(&actions, 3)
    }

    nonisolated(unsafe) private static let closeFromSymbol: UnsafeMutableRawPointer? = {
        let handle = dlopen(nil, RTLD_NOW)
        return dlsym(handle, "posix_spawn_file_actions_addclosefrom_np")
    }()

    /// Starts `executable`: an absolute path, or a name looked up in this process's PATH (as
    /// `posix_spawnp` does).
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                      actions: inout posix_spawn_file_actions_t, attributes: inout posix_spawnattr_t) throws -> pid_t {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw TestServerError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        return pid
    }
}

/// Sockets on 127.0.0.1, the only address the test servers use.
enum Loopback {
    static let host = "127.0.0.1"

    /// A port that is free right now (bound to port 0, then released). Another program may take
    /// it before the server binds it: callers retry with a new port when the server says so.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket(): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw TestServerError("bind(127.0.0.1:0): \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw TestServerError("getsockname(): \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port` now.
    static func accepts(_ port: Int) -> Bool {
        guard let fd = try? connected(port, timeout: 1) else { return false }
        close(fd)
        return true
    }

    /// A connected socket to 127.0.0.1:`port`, with send and receive timeouts.
    static func connected(_ port: Int, timeout: TimeInterval) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestServerError("socket(): \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw TestServerError("connect(127.0.0.1:\(port)): \(String(cString: strerror(error)))")
        }
        return fd
    }

    /// One HTTP/1.0 request to 127.0.0.1:`port`; the status and body of the answer. For the
    /// control requests of the Python servers (no dependency on URLSession or curl).
    static func request(port: Int, method: String, path: String, body: Data = Data(),
                        timeout: TimeInterval = 5) throws -> (status: Int, body: String) {
        let fd = try connected(port, timeout: timeout)
        defer { close(fd) }
        var message = Data("\(method) \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        message.append(body)
        try message.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = send(fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    throw TestServerError("send to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        var answer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 {
                if errno == EINTR { continue }
                throw TestServerError("recv from 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            answer.append(contentsOf: chunk[0..<count])
        }
        let text = String(decoding: answer, as: UTF8.self)
        let statusLine = text.prefix { $0 != "\r" && $0 != "\n" }
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestServerError("no HTTP answer from 127.0.0.1:\(port) to \(method) \(path): \(text.debugDescription)")
        }
        let bodyText = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, bodyText)
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }
}

/// What the servers share: where the scripts are, which programs run them, waiting for a server
/// to be ready, reading logs.
enum ServerSupport {
    /// `Tests/Servers` of the repository: the Python servers and the supervisor script.
    static var scriptsDirectory: URL { Fixtures.repositoryRoot.appendingPathComponent("Tests/Servers") }

    static func script(_ name: String) throws -> String {
        let path = scriptsDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { throw TestServerError("missing server script \(path)") }
        return path
    }

    /// The system's python3 (what scripts/install-deps.sh installs), else the first on PATH.
    static func python3() throws -> String {
        try program("python3", preferring: ["/usr/bin/python3"])
    }

    /// An executable by absolute path (the first of `candidates` that exists), else from PATH.
    static func program(_ name: String, preferring candidates: [String]) throws -> String {
        let fileManager = FileManager.default
        for candidate in candidates where fileManager.isExecutableFile(atPath: candidate) { return candidate }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if fileManager.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestServerError("\(name) is not installed (run scripts/install-deps.sh test)")
    }

    /// How long a server may take to accept connections. Generous: on a loaded 2-core machine
    /// running the whole suite, Python alone can take a second to start.
    static let startTimeout: TimeInterval = 10

    /// Polls until `ready()` holds, failing early when the process exits and after the timeout,
    /// with the server's log in the error.
    static func waitUntilReady(_ name: String, process: ServerProcess, timeout: TimeInterval = startTimeout,
                               ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var delay: useconds_t = 2_000
        while true {
            if ready() { return }
            if process.hasExited {
                process.stop()
                throw TestServerError("\(name) exited while starting (status \(process.exitStatus ?? -1))\(logExcerpt(process.logPath))")
            }
            if Date() > deadline {
                process.stop()
                throw TestServerError("\(name) did not accept connections within \(Int(timeout)) s\(logExcerpt(process.logPath))")
            }
            usleep(delay)
            delay = min(delay * 2, 25_000)
        }
    }

    /// The end of a log, formatted to follow an error message.
    static func logExcerpt(_ path: String, limit: Int = 4000) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty else {
            return " (log \(path) is empty)"
        }
        let excerpt = text.count > limit ? "…" + text.suffix(limit) : Substring(text)
        return "; log \(path):\n\(excerpt)"
    }

    static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    static func write(_ text: String, to url: URL, permissions: Int = 0o600) throws {
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: url.path)
    }

    /// The non-empty lines of a request log.
    static func lines(_ path: String) -> [String] {
        read(path).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// The lines of a log written when requests end (lighttpd's access log): read until it has
    /// not grown for 100 ms (at most 2 s), so that a request whose answer the client has already
    /// read is counted.
    static func settledLines(_ path: String) -> [String] {
        var lines = lines(path)
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            usleep(100_000)
            let again = self.lines(path)
            if again.count == lines.count { return again }
            lines = again
        }
        return lines
    }

    /// `relativePath` below a base URL, each component percent-encoded.
    static func url(_ base: URL, appending relativePath: String) -> URL {
        var url = base
        for component in relativePath.split(separator: "/") where !component.isEmpty {
            url.appendPathComponent(String(component))
        }
        return url
    }

    /// Refuses paths that cannot be written into a lighttpd or sshd configuration unquoted.
    static func checkConfigurable(_ path: String, for server: String) throws {
        if path.contains(where: { "\"\\'\n\r".contains($0) }) || path.contains(" ") && server == "sshd" {
            throw TestServerError("\(server) cannot be configured with the path \(path.debugDescription)")
        }
    }
}
