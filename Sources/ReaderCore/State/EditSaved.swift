import BibModel

/// How a written edit went: what changed in the file, once it is durable.
public struct EditSaved: Sendable, Equatable {
    /// The request's `id`.
    public let id: Int
    /// One line per change (`Read: 0 → 1`), cleaned for the terminal.
    public let summary: [String]
    /// The fields as written (the modification date included).
    public let changes: [FieldChange]
    /// False when the file already said so: nothing was written.
    public let wrote: Bool
    /// True when another program had changed the file since the reader read it: the edit was
    /// made on the file as it was, which the reader must read again to show.
    public let changedElsewhere: Bool
    /// True when a static group's member list changed (a BibDesk group comment): the reader
    /// reads the file again to show it.
    public let changedGroup: Bool

    public init(id: Int, summary: [String], changes: [FieldChange], wrote: Bool, changedElsewhere: Bool, changedGroup: Bool = false) {
        self.id = id
        self.summary = summary
        self.changes = changes
        self.wrote = wrote
        self.changedElsewhere = changedElsewhere
        self.changedGroup = changedGroup
    }
}
