/// A change two versions made differently, which a merge cannot decide: the file keeps the
/// other side's (`theirs`), and this keeps the value that lost (`mine`) until the user picks.
public struct MergeConflict: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The same field set to different values on both sides (or added with different values).
        case field
        /// One side deleted the reference, the other changed it: the reference is kept.
        case deletedAndEdited
    }

    public let kind: Kind
    public let address: EntryAddress
    /// The field (lower case; `FieldDifference.entryType` for the type); nil for `deletedAndEdited`.
    public let field: String?
    /// The value in the last version both sides had (nil: absent or unknown).
    public let base: String?
    /// This side's value, kept out of the file (nil: removed).
    public let mine: String?
    /// The other side's value, kept in the file (nil: removed).
    public let theirs: String?

    public init(kind: Kind, address: EntryAddress, field: String?, base: String?, mine: String?, theirs: String?) {
        self.kind = kind
        self.address = address
        self.field = field
        self.base = base
        self.mine = mine
        self.theirs = theirs
    }
}
