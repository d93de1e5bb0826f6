import Foundation

/// What happened to the `xdg-mime` step of an install.
public enum XDGMimeOutcome: Sendable, Equatable {
    /// No `xdg-mime` was given (not installed): the desktop file is written, not made the default.
    case notAvailable
    /// It ran and ended so.
    case ran(Termination)
    /// It could not be started.
    case failedToStart(LaunchError)
}
