import BibModel
import Foundation
import OpenWith
import ReadingList

/// Where a linked file is: here, in the sync cache, only on its remote, or nowhere.
public enum FileLocation: Sendable, Equatable {
    case local(String)
    case cached(String)
    case remoteOnly
    case missing

    /// The path to open, when the file is on this machine.
    public var path: String? {
        switch self {
        case .local(let path), .cached(let path): return path
        case .remoteOnly, .missing: return nil
        }
    }

    /// Looks at the disk (and the aliases of synced libraries).
    @Sendable public static func of(_ file: LinkedFile) -> FileLocation {
        guard let local = file.localPath else { return file.isRemote ? .remoteOnly : .missing }
        return local == file.path ? .local(local) : .cached(local)
    }
}
