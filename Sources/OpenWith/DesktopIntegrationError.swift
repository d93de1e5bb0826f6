import DiskIO
import Foundation

/// Why the desktop integration could not be written.
public enum DesktopIntegrationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bibread path is not absolute (the desktop starts it from anywhere).
    case relativeExecutable(String)
    /// The bibread path holds a control character, which an Exec line cannot carry.
    case unrepresentableExecutable(String)
    /// A file operation failed.
    case file(SystemCallError)
    /// A file could not be written (the message names it and says why).
    case write(String)

    /// The problem as a sentence for messages.
    public var description: String {
        switch self {
        case .relativeExecutable(let path): return "'\(path)' is not an absolute path"
        case .unrepresentableExecutable(let path): return "the path '\(path)' holds a control character, which a desktop file cannot hold"
        case .file(let error): return error.description
        case .write(let message): return message
        }
    }
}
