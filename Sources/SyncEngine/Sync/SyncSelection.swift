import BibModel
import Foundation

/// Which PDFs a sync brings: members of groups, references with a yes/no field set, or all.
public struct SyncSelection: Sendable, Equatable {
    public var groups: [String]
    public var field: String?
    public var allPDFs: Bool

    public init(groups: [String] = [], field: String? = nil, allPDFs: Bool = false) {
        self.groups = groups
        self.field = field
        self.allPDFs = allPDFs
    }

    /// Nothing chosen: only the .bib files sync.
    public var isEmpty: Bool { groups.isEmpty && field == nil && !allPDFs }
}
