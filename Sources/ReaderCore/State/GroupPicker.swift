import BibModel
import Foundation

/// The static groups checklist (`+`): the groups of the reference's file that list members
/// (BibDesk static groups, JabRef explicit groups), ticked where the reference is in them;
/// Space toggles, Enter applies the differences.
public struct GroupPicker: Sendable, Equatable {
    /// The reference filed.
    public let address: EntryAddress
    /// The groups, with the reference's membership when the picker opened.
    public let membership: StaticGroupMembership
    /// Which groups are ticked now, in the order of `membership.choices`.
    public internal(set) var ticked: [Bool]
    public internal(set) var cursor = ListCursor()

    public init(address: EntryAddress, membership: StaticGroupMembership) {
        self.address = address
        self.membership = membership
        ticked = membership.choices.map(\.isMember)
    }

    /// The file's name, for the title and messages.
    public var fileName: String { (membership.path as NSString).lastPathComponent }

    /// Ticks or unticks the group under the cursor.
    mutating func toggle() {
        guard ticked.indices.contains(cursor.selected) else { return }
        ticked[cursor.selected].toggle()
    }

    /// Moves the cursor by `delta` rows (clamped), keeping it in a window of `rows` rows.
    mutating func move(by delta: Int, rows: Int) {
        let (sum, overflow) = cursor.selected.addingReportingOverflow(delta)
        cursor.selected = overflow ? (delta > 0 ? Int.max / 2 : 0) : sum
        cursor.clamp(count: ticked.count, rows: rows)
    }

    /// The groups whose tick differs from the reference's membership: an edit for each, with the
    /// history's name for it as `bibread group add|remove` writes it. One edit per group: a
    /// BibDesk edit changes one static group's member list at a time.
    public func changes() -> [(edit: EntryEdit, command: String)] {
        zip(membership.choices, ticked).compactMap { choice, isTicked in
            guard choice.isMember != isTicked else { return nil }
            let verb = isTicked ? "add" : "remove"
            return (isTicked ? .addToGroup(choice.name) : .removeFromGroup(choice.name),
                    "group \(verb) \(choice.name)")
        }
    }

    /// What the overlay says when the file keeps no static groups: that, and how to make one.
    public var emptyNotice: [String] {
        [
            "\(fileName) has no static groups to file references into.",
            membership.dialect == .jabRef
                ? "In JabRef: Add group (under the groups pane), a name, and keep its type, manual assignment (explicit)."
                : "In BibDesk: a new static group (the + under the groups list); in JabRef: Add group, manual assignment.",
            "Save the file there; bibread reads it again, then press + here.",
        ]
    }
}
