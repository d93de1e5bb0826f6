import BibModel

/// What folding a conflicted copy into its library did.
public struct ConflictedCopyMergeOutcome: Sendable {
    public let merge: LibraryMerge.Result
    /// Whether the merge had the last synced copy as its base (else: both values kept).
    public let hadBase: Bool
    /// Where the copy went (nil for a dry run).
    public let movedCopy: String?
}
