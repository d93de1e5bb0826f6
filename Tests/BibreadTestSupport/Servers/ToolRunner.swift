import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a program run by `ToolRunner` did.
public struct ToolResult: Sendable {
    /// The exit code, or 128 + the signal that ended the program, as a shell reports it.
    public let status: Int32
    public let standardOutput: Data
    public let standardError: String

    /// Standard output as UTF-8 text.
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
}

/// Runs a command-line program (curl, sftp, ssh-keygen, tmux, bibread…) to completion from an
/// async test, with `posix_spawn` and a clean signal state, waiting with `waitpid(WNOHANG)` and
/// `Task.sleep` so that no thread blocks (see `ServerProcess` for why not `Foundation.Process`).
public enum ToolRunner {
    /// Runs `executable` (an absolute path, or a name looked up in PATH) with `arguments`; `environment` adds or (with nil)
    /// removes variables. A program still running after `timeout` is killed and the run throws.
    public static func run(_ executable: String, _ arguments: [String], environment extra: [String: String?] = [:],
                           standardInput: Data? = nil, timeout: Duration = .seconds(60)) async throws -> ToolResult {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-tool-\(UUID().uuidString)")
        let inPath = scratch.path + ".in"
        let outPath = scratch.path + ".out"
        let errPath = scratch.path + ".err"
        defer {
            unlink(inPath)
            unlink(outPath)
            unlink(errPath)
        }
        if let standardInput { try standardInput.write(to: URL(fileURLWithPath: inPath)) }

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput == nil ? "/dev/null" : inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        ServerProcess.closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ServerProcess.cleanSignalState(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let pid = try ServerProcess.spawn(executable, arguments, environment: environment,
                                          actions: &actions, attributes: &attributes)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var status: Int32 = 0
        var delay = 1
        var timedOut = false
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR {
                throw TestServerError("waitpid(\(pid)) for \(executable) failed: \(String(cString: strerror(errno)))")
            }
            if !timedOut && clock.now > deadline {
                timedOut = true
                kill(pid, SIGKILL)
            }
            do {
                try await Task.sleep(for: .milliseconds(delay))
            } catch {
                kill(pid, SIGKILL)  // cancelled: do not leave the program running
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw error
            }
            delay = min(delay * 2, 20)
        }
        let output = (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data()
        let error = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        if timedOut {
            throw TestServerError("\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout); stderr: \(error)")
        }
        return ToolResult(status: ServerProcess.shellStatus(status), standardOutput: output, standardError: error)
    }

    /// Runs the curl command-line program.
    public static func curl(_ arguments: [String], environment: [String: String?] = [:],
                            timeout: Duration = .seconds(60)) async throws -> ToolResult {
        try await run(ServerSupport.program("curl", preferring: ["/usr/bin/curl"]), arguments,
                      environment: environment, timeout: timeout)
    }
}
