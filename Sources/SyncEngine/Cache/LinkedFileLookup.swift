import BibModel

/// How `LinkedFileLocator` found a linked file (or did not), with what a report needs to say so.
public enum LinkedFileLookup: Sendable, Equatable {
    /// At its path, through a local library's `path_mapping`, or as a synced library's file (in
    /// its cache, only on its remote, or absent from both): no guess involved.
    case located(FileLocation)
    /// Not at its path (nor its mapped path): the one file of that name under the folders
    /// searched, a guess.
    case sameName(String)
    /// Not at its path, and several files of that name are under the folders searched: none is
    /// guessed.
    case ambiguous([String])
    /// Nowhere: `searched` are the folders looked through for its name; `isComplete` is false
    /// when a folder was too large or too deep to be read whole.
    case notFound(searched: [String], isComplete: Bool)

    /// Where the file is for whoever opens it: a guess is opened (as `.found`), an ambiguous
    /// name is not.
    public var location: FileLocation {
        switch self {
        case .located(let location): return location
        case .sameName(let path): return .found(path)
        case .ambiguous, .notFound: return .missing
        }
    }
}
