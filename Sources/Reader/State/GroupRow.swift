import BibModel
import Foundation
import ReadingList

/// One visible row of the groups pane (the tree flattened by what is expanded).
public struct GroupRow: Sendable, Equatable {
    public let path: String
    public let name: String
    public let depth: Int
    public let kind: Group.Kind
    public let hasChildren: Bool
    public let unavailableReason: String?
    /// The name of a .bib file above the groups it keeps (when several files are open): not a
    /// group, nothing to show or count.
    public var isHeading = false
}
