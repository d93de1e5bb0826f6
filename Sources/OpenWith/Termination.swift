import Foundation
import Glibc

/// How a program ended.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)
    /// Someone else collected its status (a `waitpid(-1, …)` elsewhere in the process).
    case unknown

    /// Whether it exited with status 0.
    public var succeeded: Bool { self == .exited(0) }

    /// How it ended, as a phrase for messages.
    public var description: String {
        switch self {
        case .exited(let status): return "exited with status \(status)"
        case .signaled(let signal): return "ended by signal \(signal)"
        case .unknown: return "ended (status unknown)"
        }
    }

    /// Decodes a `waitpid` status.
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}
