/// How one reference differs between two versions of a library.
public enum EntryChange: Sendable, Hashable {
    /// In the second version only.
    case added(EntrySnapshot)
    /// In the first version only.
    case removed(EntrySnapshot)
    /// In both, with these fields changed (in the order of the second version's fields, then
    /// the removed ones by name).
    case changed(EntrySnapshot, [FieldDifference])

    /// The reference's address in the version it comes from.
    public var address: EntryAddress {
        switch self {
        case .added(let entry), .removed(let entry), .changed(let entry, _): return entry.address
        }
    }
}
