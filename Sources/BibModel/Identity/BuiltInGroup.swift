import Foundation

/// The groups bibread itself provides: one definition for the model, which works out the members
/// of most of them, and the reader, which adds the two only it knows (what was read on this
/// machine, and what a link named).
public enum BuiltInGroup: String, CaseIterable, Sendable {
    case all = "All"
    case withPDF = "With PDF"
    /// Only for a synced library: the references whose PDF only the remote has.
    case remoteOnly = "On the remote only"
    case withoutPDF = "Without PDF"
    case unread = "Unread"
    case recentlyAdded = "Recently added"
    /// The reader's: read on this machine, the most recent first.
    case recentlyRead = "Recently read"
    /// The reader's: the papers of the link it was opened with, for that session only.
    case fromLink = "From link"
    /// The reader's, for a synced library: references with a conflict a sync's merge left.
    case conflicts = "Conflicts"

    /// The name shown, and written in a session or a `--group` argument.
    public var name: String { rawValue }

    /// The built-in group of this name (case-insensitive, as every group name is matched).
    public init?(named name: String) {
        guard let found = BuiltInGroup.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(name) == .orderedSame }) else {
            return nil
        }
        self = found
    }

    /// Whether the reader, not the model, knows the members (what was read, what a link named).
    public var isTheReaders: Bool { self == .recentlyRead || self == .fromLink || self == .conflicts }

    /// Whether the list keeps the group's own order (most recent first; the link's order) rather
    /// than the sort.
    public var keepsItsOwnOrder: Bool { self == .recentlyRead || self == .fromLink }

    /// Whether the group lasts only for the session that made it (a session never restores it).
    public var isTransient: Bool { self == .fromLink }
}
