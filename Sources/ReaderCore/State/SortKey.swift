import BibModel
import Foundation
import ReadingList

/// The orders the reference list can be sorted in (`s` cycles through them).
public enum SortKey: String, Sendable, CaseIterable {
    case author, year, title, dateAdded = "date-added", lastRead = "last-read"

    /// The name shown in the list header.
    public var label: String {
        switch self {
        case .author: return "author"
        case .year: return "year"
        case .title: return "title"
        case .dateAdded: return "date added"
        case .lastRead: return "last read"
        }
    }

    /// The order a new sort starts in: newest first for dates, A to Z otherwise.
    public var startsDescending: Bool {
        switch self {
        case .year, .dateAdded, .lastRead: return true
        case .author, .title: return false
        }
    }
}
