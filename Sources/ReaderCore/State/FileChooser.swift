import BibModel
import Foundation
import ReadingList

/// The file chooser shown when a reference has several PDFs.
public struct FileChooser: Sendable, Equatable {
    /// The reference whose files these are.
    public let address: EntryAddress
    public let files: [LinkedFile]
    /// The page to open the chosen file at (a bookmark's, a link's).
    public var page: PageRequest? = nil
    public var selected = 0
}
