import Foundation
import GRDB
import ReadingList

/// What importing a reading list added.
public struct ImportSummary: Sendable, Equatable {
    /// The folder the list was imported into, and the name it got (`Week 1 (2)` when taken).
    public let folderID: Int64
    public let folderName: String
    public let bookmarks: Int
    public let folders: Int
    public let notemarks: Int
    /// Page notes appended to the user's notes, and those skipped because the page's note
    /// already held that text.
    public let notesAdded: Int
    public let notesAlreadyThere: Int
}
