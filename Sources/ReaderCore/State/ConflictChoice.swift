import BibModel

/// How `C` settles a conflicting field (as `bibread conflicts resolve` does).
public struct ConflictChoice: Sendable, Equatable {
    /// Which value to keep.
    public enum Value: Sendable, Equatable {
        /// The library's (the other machine's): nothing is written.
        case theirs
        /// This machine's, written into the library (the next sync pushes it).
        case mine
        /// Another, written as `mine` is.
        case other(String)
    }

    public let path: String
    public let address: EntryAddress
    /// The field, as the journal names it (lower case).
    public let field: String
    public let value: Value

    public init(path: String, address: EntryAddress, field: String, value: Value) {
        self.path = path
        self.address = address
        self.field = field
        self.value = value
    }
}
