import Glibc

/// Why a program could not be started.
public enum LaunchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no such program (ENOENT).
    case notFound(String)
    /// It may not be run: no execute permission, or a folder on its path not searchable (EACCES).
    case permissionDenied(String)
    /// It is not a program the kernel can run: no `#!` line and not a binary (ENOEXEC).
    case notExecutable(String)
    /// An argument, the program's path or an environment entry holds a NUL byte (or a variable
    /// name holds `=`).
    case invalidArgument(String)
    /// An OSC 52 entry is written to the terminal (``OSC52``), not started.
    case notAProcess
    /// Another failure of a system call, with its errno.
    case systemCall(String, code: Int32)

    /// The problem as a sentence for messages.
    public var description: String {
        switch self {
        case .notFound(let program): return "\(program): no such program"
        case .permissionDenied(let program): return "\(program): permission denied"
        case .notExecutable(let program): return "\(program): not an executable program"
        case .invalidArgument(let what): return "cannot pass \(what) to a program (it holds a NUL byte)"
        case .notAProcess: return "this handler writes to the terminal and runs no program"
        case .systemCall(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
        }
    }

    /// The error for an errno from posix_spawn.
    static func spawning(_ program: String, code: Int32) -> LaunchError {
        switch code {
        case ENOENT, ENOTDIR: return .notFound(program)
        case EACCES, EPERM: return .permissionDenied(program)
        case ENOEXEC: return .notExecutable(program)
        default: return .systemCall("posix_spawn", code: code)
        }
    }
}
