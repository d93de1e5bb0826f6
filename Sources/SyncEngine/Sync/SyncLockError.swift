import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why a sync did not start.
public enum SyncLockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another sync of the remote is running and the caller chose not to wait.
    case busy(remote: String, holder: SyncLockHolder)
    /// The wait for another sync of the remote was cancelled.
    case stoppedWaiting(remote: String)

    public var description: String {
        switch self {
        case .busy(let remote, let holder):
            return "another sync of '\(remote)' is running (\(holder)); not waiting for it"
        case .stoppedWaiting(let remote):
            return "stopped waiting for the other sync of '\(remote)'; nothing was changed"
        }
    }
}
