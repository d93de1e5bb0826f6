import Foundation

/// One change a reader makes to one reference, said in its own terms; `LibraryEditor` turns it
/// into fields in the library's conventions.
public enum EntryEdit: Sendable, Equatable {
    /// Sets a field to a value written as BibTeX (LaTeX as it should stand between the braces).
    case setField(String, to: String)
    /// Removes a field (every copy of it, so that no duplicate shows through).
    case removeField(String)
    /// Marks the reference read or unread.
    case markRead(Bool)
    /// Sets the rating, 0 (none) to 5.
    case rate(Int)
    /// Adds keywords the reference does not have yet.
    case addKeywords([String])
    /// Removes keywords (compared ignoring case).
    case removeKeywords([String])
    /// Adds the reference to a static group (BibDesk) or an explicit group (JabRef).
    case addToGroup(String)
    /// Removes the reference from a static or explicit group.
    case removeFromGroup(String)
}

/// One field as an edit changed it: its raw BibTeX value before and after (nil: absent).
public struct FieldChange: Sendable, Equatable {
    /// The field's name as the file spells it (or, for a new field, as it was written).
    public let name: String
    public let oldValue: String?
    public let newValue: String?
}

/// What an edit did to a library file: its new bytes, and what changed in them.
public struct EditResult: Sendable {
    /// The file's new bytes, in its own encoding and line endings.
    public let bytes: [UInt8]
    /// The entry that was edited.
    public let address: EntryAddress
    /// The edits asked for.
    public let edits: [EntryEdit]
    /// The fields that changed, the modification date included.
    public let changes: [FieldChange]
    /// The static group whose member list changed in a group comment, if one did.
    public let changedGroupComment: String?
    /// The byte ranges of the old file that were replaced, in order, with the length of what
    /// replaced each: every byte outside them is the old file's.
    public let replacements: [Replacement]
    /// The edited entry's position among the entries of its file (for an inserted entry, in
    /// the new file; for a removed one, in the old).
    let entryIndex: Int
    /// A whole entry put in or taken out; nil when fields of an entry changed.
    public let wholeEntry: WholeEntryChange?

    init(bytes: [UInt8], address: EntryAddress, edits: [EntryEdit], changes: [FieldChange], changedGroupComment: String?,
         replacements: [Replacement], entryIndex: Int, wholeEntry: WholeEntryChange? = nil) {
        self.bytes = bytes
        self.address = address
        self.edits = edits
        self.changes = changes
        self.changedGroupComment = changedGroupComment
        self.replacements = replacements
        self.entryIndex = entryIndex
        self.wholeEntry = wholeEntry
    }

    /// True when the edit changed nothing (the bytes are the old file's).
    public var isUnchanged: Bool { replacements.isEmpty }

    /// One line per change, for people (`Read: 0 → 1`).
    public var summary: [String] {
        var lines = changes.map { change in
            switch (change.oldValue, change.newValue) {
            case (nil, let new?): return "\(change.name): added \(new)"
            case (let old?, nil): return "\(change.name): removed (was \(old))"
            case (let old?, let new?): return "\(change.name): \(old) → \(new)"
            case (nil, nil): return "\(change.name): unchanged"
            }
        }
        if let group = changedGroupComment { lines.append("static group \"\(group)\": members changed") }
        switch wholeEntry {
        case .inserted?: lines.append("\(address.text): added")
        case .removed?: lines.append("\(address.text): removed")
        case nil: break
        }
        return lines.map { TerminalText.cleanedLine($0) }
    }
}

/// A byte range of the old file and the number of bytes that took its place.
public struct Replacement: Sendable, Equatable {
    public let range: Range<Int>
    public let newCount: Int
}
