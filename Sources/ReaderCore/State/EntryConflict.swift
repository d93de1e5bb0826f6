import BibModel

/// A conflict a sync's merge left on a reference of the library, as its remote's journal keeps
/// it: the field, this machine's value (kept in the journal) and the library's (in the file).
public struct EntryConflict: Sendable, Equatable {
    /// The journal's number for it.
    public let id: Int64
    /// The library file (here) the reference is in.
    public let path: String
    public let conflict: MergeConflict

    public init(id: Int64, path: String, conflict: MergeConflict) {
        self.id = id
        self.path = path
        self.conflict = conflict
    }
}
