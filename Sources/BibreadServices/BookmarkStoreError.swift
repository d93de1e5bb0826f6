import Foundation
import GRDB
import ReadingList

/// Errors of the bookmark store that are the user's to fix.
public enum BookmarkStoreError: Error, Equatable, CustomStringConvertible {
    case noSuchFolder(String)
    case noSuchNode(Int64)
    /// A folder cannot be moved into itself or a folder it holds.
    case folderIntoItself(String)

    public var description: String {
        switch self {
        case .noSuchFolder(let path): return "there is no bookmark folder '\(path)'"
        case .noSuchNode(let id): return "there is no bookmark #\(id)"
        case .folderIntoItself(let name): return "the folder \(name) cannot go inside itself"
        }
    }
}
