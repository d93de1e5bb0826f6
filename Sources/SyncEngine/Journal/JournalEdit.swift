import BibModel
import GRDB

/// One recorded change of a field (or of the entry type) of a synced library's reference.
public struct JournalEdit: Sendable, Equatable {
    public let id: Int64
    /// The library file's path on the remote.
    public let file: String
    public let address: EntryAddress
    public let change: FieldDifference
    public let madeAt: Double

    init(row: Row) {
        id = row["id"]
        file = row["file"]
        address = EntryAddress(row["address"] as String)
        change = FieldDifference(field: row["field"], before: row["before"], after: row["after"])
        madeAt = row["made_at"]
    }
}
