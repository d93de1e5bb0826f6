import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion without blocking a Swift concurrency thread, and with a clean
/// signal state.
///
/// Two reasons not to use `Foundation.Process` (or `ProcessRunner`, which wraps it) here:
/// - A child started from a test inherits the signal mask of the Dispatch worker thread that
///   started it, which blocks SIGINT, SIGTERM and SIGHUP. A tmux server started that way passes
///   the mask on to the programs in its panes, and then signals sent to bibread never arrive.
///   `posix_spawn` with `POSIX_SPAWN_SETSIGMASK` starts the child with nothing blocked.
/// - `Process.waitUntilExit` blocks its thread, and Foundation finishes a process's termination
///   on a global Dispatch queue: on a 2-core machine two parallel tests blocked that way take
///   the whole cooperative pool and never wake up. Here the wait is `waitpid(WNOHANG)` polled
///   with `Task.sleep`.
enum Spawn {
    struct Output: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func run(_ executable: String, _ arguments: [String], environment extra: [String: String?] = [:]) async throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-e2e-spawn-\(UUID().uuidString)")
        let outPath = scratch.path + ".out"
        let errPath = scratch.path + ".err"
        defer {
            unlink(outPath)
            unlink(errPath)
        }

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
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
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw EndToEndFailure("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }

        var status: Int32 = 0
        var delay = 1
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR {
                throw EndToEndFailure("waitpid(\(pid)) for \(executable) failed: \(String(cString: strerror(errno)))")
            }
            try await Task.sleep(for: .milliseconds(delay))
            delay = min(delay * 2, 20)
        }
        // Exited normally: the code; killed by a signal: 128 + the signal, as a shell reports it.
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Output(status: exitStatus, standardOutput: output, standardError: error)
    }
}
