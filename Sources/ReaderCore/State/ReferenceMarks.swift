import BibModel
import Foundation
import ReadingList

/// Marks shown before a reference in the list.
public struct ReferenceMarks: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let hasPDF = ReferenceMarks(rawValue: 1)
    public static let read = ReferenceMarks(rawValue: 2)
    public static let bookmarked = ReferenceMarks(rawValue: 4)
    /// No PDF on this machine, but the synced library's remote has one (`○`).
    public static let remoteOnly = ReferenceMarks(rawValue: 8)
}
