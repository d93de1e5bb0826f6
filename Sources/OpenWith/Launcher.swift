import BibreadValues
import DiskIO
import Foundation
import Glibc

/// Starts handler programs with `posix_spawn`, as an argv: never through a shell.
///
/// Each style:
/// - `detached`: a new session (`POSIX_SPAWN_SETSID`), standard input, output and error on
///   `/dev/null` (output and error in the log file given instead, when one is), not waited for; a thread of the ``LaunchedProcess`` collects it when it ends
///   (posix_spawn cannot double-fork), so no zombie is left;
/// - `quick`: its own process group, standard input from the command's bytes (else
///   `/dev/null`), output and error on `/dev/null`; waited for;
/// - `background`: as quick, but not waited for; ``LaunchedProcess/stop(gracePeriod:)`` ends it
///   and its process group;
/// - `terminal`: stays in the terminal's process group with the terminal as output and error
///   (and input, unless the command has standard input, which then comes through a pipe);
///   waited for, with SIGINT and SIGQUIT ignored in bibread meanwhile, as `system(3)` does, so
///   that Ctrl-C reaches the program only.
///
/// Every child starts with no signal blocked and default signal actions (bibread may have been
/// started with some blocked or ignored), and, where the C library can (glibc 2.34), with no
/// descriptor above 2 open. Standard input is written by a thread of its own with SIGPIPE
/// blocked there, so a program that does not read it all cannot hurt bibread.
public enum Launcher {
    /// Starts `command` in `style`; `environment` replaces bibread's own when given; `log`, a
    /// file created (or emptied) for this user alone, takes the output and errors of a program
    /// not run in the terminal. For quick and terminal styles the returned process has already
    /// ended.
    @discardableResult
    public static func spawn(_ command: PreparedCommand, style: HandlerStyle, environment: [String: String]? = nil, log: String? = nil)
        throws(LaunchError) -> LaunchedProcess
    {
        if style == .osc52 { throw .notAProcess }
        let argv = [command.executable] + command.arguments
        if let bad = argv.first(where: { $0.utf8.contains(0) }) { throw .invalidArgument("the argument '\(bad)'") }
        var environmentLines: [String]?
        if let environment {
            var lines: [String] = []
            for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
                if name.isEmpty || name.contains("=") || name.utf8.contains(0) || value.utf8.contains(0) {
                    throw .invalidArgument("the environment variable '\(name)'")
                }
                lines.append("\(name)=\(value)")
            }
            environmentLines = lines
        }

        let input = try command.standardInput.map { _ throws(LaunchError) in try GNUExtensions.closeOnExecPipe() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        } else if style != .terminal {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if style != .terminal {
            if let log {
                posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0o600)
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
        }
        GNUExtensions.closeDescriptors(from: 3, in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        switch style {
        case .detached:
            flags |= GNUExtensions.spawnSetSessionFlag
        case .quick, .background:
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        case .terminal, .osc52:
            break
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in 1..<Int32(32) where signal != SIGKILL && signal != SIGSTOP {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environmentLines.map { $0.map { strdup($0) } + [nil] }
        defer {
            cArguments.forEach { free($0) }
            cEnvironment?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result: Int32
        if let cEnvironment {
            result = posix_spawn(&pid, command.executable, &actions, &attributes, cArguments, cEnvironment)
        } else {
            result = posix_spawn(&pid, command.executable, &actions, &attributes, cArguments, environ)
        }
        if let input { close(input.read) }
        guard result == 0 else {
            if let input { close(input.write) }
            throw LaunchError.spawning(command.executable, code: result)
        }

        let process = LaunchedProcess(processIdentifier: pid, signalsGroup: style != .terminal)
        if let input, let bytes = command.standardInput { StandardInputWriter.start(writing: bytes, to: input.write) }
        switch style {
        case .quick:
            process.waitUntilExit()
        case .terminal:
            ignoringInterrupts { process.waitUntilExit() }
        case .detached, .background, .osc52:
            break
        }
        return process
    }

    /// Runs `body` with SIGINT and SIGQUIT ignored, then puts their actions back.
    private static func ignoringInterrupts(_ body: () -> Void) {
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var previousInterrupt = sigaction()
        var previousQuit = sigaction()
        sigaction(SIGINT, &ignore, &previousInterrupt)
        sigaction(SIGQUIT, &ignore, &previousQuit)
        body()
        sigaction(SIGINT, &previousInterrupt, nil)
        sigaction(SIGQUIT, &previousQuit, nil)
    }
}
