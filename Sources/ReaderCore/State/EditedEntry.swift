import BibModel

/// A reference as an edit changed it (shown before its file is read again), at its position in
/// the library.
public struct EditedEntry: Sendable, Equatable {
    public let position: Int
    public let entry: Entry

    public init(position: Int, entry: Entry) {
        self.position = position
        self.entry = entry
    }

    /// The same position, address and field values.
    public static func == (left: EditedEntry, right: EditedEntry) -> Bool {
        guard left.position == right.position, left.entry.address == right.entry.address,
              left.entry.fields.count == right.entry.fields.count else { return false }
        return zip(left.entry.fields, right.entry.fields).allSatisfy { pair in
            left.entry.name(of: pair.0) == right.entry.name(of: pair.1) && left.entry.rawText(of: pair.0) == right.entry.rawText(of: pair.1)
        }
    }
}
