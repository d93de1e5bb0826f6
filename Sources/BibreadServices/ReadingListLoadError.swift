import BibModel
import Foundation
import ReadingList
import SyncEngine

/// Why a reading list could not be loaded.
public enum ReadingListLoadError: Error, CustomStringConvertible {
    case unreadable(source: String, reason: String)
    case download(url: String, failure: TransferFailure)
    case list(source: String, error: ReadingListError)

    public var description: String {
        switch self {
        case .unreadable(let source, let reason): return "\(source): \(reason)"
        case .download(let url, let failure): return "\(url): \(failure)"
        case .list(let source, .malformed(let format, let location?, let message))
            where location.contains(":") && location.allSatisfy({ $0.isNumber || $0 == ":" }):
            // A place in a text file reads as compilers write it: file:line:col.
            return "\(source):\(location): malformed \(format.displayName): \(message)"
        case .list(let source, let error): return "\(source): \(error)"
        }
    }

    /// The download was cancelled by the user.
    public var isCancellation: Bool {
        if case .download(_, .cancelled) = self { return true }
        return false
    }
}
