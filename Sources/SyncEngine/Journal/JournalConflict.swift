import BibModel
import GRDB

/// A conflict a push's merge left in the journal, until the user picks a value.
public struct JournalConflict: Sendable, Equatable {
    public let id: Int64
    /// The library file's path on the remote.
    public let file: String
    public let conflict: MergeConflict
    public let foundAt: Double

    init(row: Row) {
        id = row["id"]
        file = row["file"]
        let kind: MergeConflict.Kind = (row["kind"] as String) == "field" ? .field : .deletedAndEdited
        conflict = MergeConflict(kind: kind, address: EntryAddress(row["address"] as String), field: row["field"],
                                 base: row["base"], mine: row["mine"], theirs: row["theirs"])
        foundAt = row["found_at"]
    }
}
