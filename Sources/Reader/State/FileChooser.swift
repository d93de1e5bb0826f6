import BibModel
import Foundation
import ReadingList

/// The file chooser shown when a reference has several PDFs.
public struct FileChooser: Sendable, Equatable {
    public let key: String
    public let files: [LinkedFile]
    /// The page to open the chosen file at (a bookmark's, a link's).
    public var page: PageRequest? = nil
    public var selected = 0
}
