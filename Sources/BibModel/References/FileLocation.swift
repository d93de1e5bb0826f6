/// Where a linked file is: here, in the sync cache, found elsewhere by its name, only on its
/// remote, or nowhere.
///
/// The model never looks at the disk: a `LinkedFileLocating` (the shell's, which knows the
/// synced remotes' caches) works this out, and the answers reach the model and the reader's core
/// as values.
public enum FileLocation: Sendable, Equatable {
    case local(String)
    case cached(String)
    /// Not at its path: the one file of the same name under the library's folder or its mapped
    /// folders (a guess, which the reader and `bibread check` say).
    case found(String)
    case remoteOnly
    case missing

    /// The path to open, when the file is on this machine.
    public var path: String? {
        switch self {
        case .local(let path), .cached(let path), .found(let path): return path
        case .remoteOnly, .missing: return nil
        }
    }

    /// Whether the file is on this machine (at its path, or as a synced copy).
    public var isHere: Bool { path != nil }
}
