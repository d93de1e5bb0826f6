/// What a three-way merge decided: the changes of this side to make to the other side's file, and
/// the conflicts it left for the user (the file keeps the other side's value for each).
public struct MergePlan: Sendable, Equatable {
    /// This side's changes that the other side does not have yet, to apply to its file.
    public var changes: [EntryChange] = []
    public var conflicts: [MergeConflict] = []

    public init(changes: [EntryChange] = [], conflicts: [MergeConflict] = []) {
        self.changes = changes
        self.conflicts = conflicts
    }

    /// Whether the other side's file already holds everything (nothing to apply, nothing to ask).
    public var isEmpty: Bool { changes.isEmpty && conflicts.isEmpty }
}
