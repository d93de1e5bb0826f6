import BibModel

/// An edit of one reference to write: what `requestEdit` asks the shell for.
public struct EditRequest: Sendable, Equatable {
    /// Tells this edit's outcome from the others' (`editSaved`, `editFailed`).
    public let id: Int
    /// The library file the reference is in.
    public let path: String
    public let address: EntryAddress
    public let edits: [EntryEdit]
    /// How the file's history names the edit (`bibread undo` and `u` show it).
    public let command: String

    public init(id: Int, path: String, address: EntryAddress, edits: [EntryEdit], command: String) {
        self.id = id
        self.path = path
        self.address = address
        self.edits = edits
        self.command = command
    }
}
