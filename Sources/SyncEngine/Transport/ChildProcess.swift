import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of a program (rclone, secret-tool), started with `posix_spawn` (not
/// `Foundation.Process`): with no signal blocked and default handlers (a thread of Dispatch
/// blocks some, and a child inherits its mask), its standard files the descriptors given, and no
/// other descriptor of bibread's (a library's lock, a socket) inherited where glibc can close
/// them. It is waited for with
/// `waitpid` on the caller's thread, and stopped with SIGKILL.
final class ChildProcess {
    let pid: pid_t
    private var ended: Int32?

    /// Starts `executable` with `arguments` (the program's name first is added) in `environment`,
    /// its standard input, output and error `files`; `name` is the program's name in the failure
    /// to start it.
    init(_ executable: String, _ arguments: [String], environment: [String: String],
         files: (input: Int32, output: Int32, errors: Int32), name: String = "rclone") throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, files.input, 0)
        posix_spawn_file_actions_adddup2(&actions, files.output, 1)
        posix_spawn_file_actions_adddup2(&actions, files.errors, 2)
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard failure == 0 else {
            throw TransferFailure.program(name: name, message: "cannot start \(executable): \(String(cString: strerror(failure)))",
                                          transient: false)
        }
        self.pid = pid
    }

    deinit {
        if ended == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
    }

    /// The exit status once it has ended (-1 when a signal ended it), else nil.
    func poll() -> Int32? {
        if ended == nil { reap(WNOHANG) }
        return ended
    }

    /// Waits until it ends; its exit status (-1 when a signal ended it).
    func wait() -> Int32 {
        while ended == nil { reap(0) }
        return ended ?? -1
    }

    /// Ends it now (SIGKILL: a blocked or ignored SIGTERM cannot keep it going) and waits.
    func stop() {
        if poll() == nil { kill(pid, SIGKILL) }
        _ = wait()
    }

    private func reap(_ options: Int32) {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, options)
        if reaped == pid {
            // WIFEXITED / WEXITSTATUS, which Swift does not import.
            ended = status & 0x7f == 0 ? (status >> 8) & 0xff : -1
        } else if reaped < 0 && errno != EINTR {
            ended = -1
        }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Glibc's module does not declare.
    private static let closeFrom: AddCloseFrom? = {
        dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
    }()
}
