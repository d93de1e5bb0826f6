import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process that holds a remote's sync lock, as it wrote itself into the lock file.
public struct SyncLockHolder: Sendable, Equatable, CustomStringConvertible {
    /// Its process id; nil when the file does not name a process that is still running (the
    /// holder has not written itself yet).
    public var pid: Int32?
    /// Its command line, credentials removed and control characters replaced; nil when unknown.
    public var command: String?

    public init(pid: Int32?, command: String?) {
        self.pid = pid
        self.command = command
    }

    public var description: String {
        switch (pid, command) {
        case let (pid?, command?): "pid \(pid): \(command)"
        case let (pid?, nil): "pid \(pid)"
        default: "another bibread process"
        }
    }
}
