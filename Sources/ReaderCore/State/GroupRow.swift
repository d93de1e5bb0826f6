import BibModel
import Foundation
import ReadingList

/// One visible row of the groups pane (the tree flattened by what is expanded).
public struct GroupRow: Sendable, Equatable {
    /// The group the row shows; nil for a file's heading.
    public let id: GroupID?
    public let name: String
    public let depth: Int
    public let kind: Group.Kind
    public let hasChildren: Bool
    public let unavailableReason: String?
    /// Whether the row is the name of a .bib file above the groups it keeps (when several files
    /// are open): not a group, nothing to show or count.
    public var isHeading: Bool { id == nil }
}
