import BibModel
import BibreadValues

/// Writes of where the reader is and what was read.
public enum ReadingEffect: Sendable, Equatable {
    /// Save where the reader is in a document (page, and 0…1 down the page).
    case savePosition(path: String, page: Int, scroll: Double)
    /// Remember how a document is shown (`t`), for the next time it is opened.
    case saveReadingMode(path: String, mode: ReadingMode)
    case recordReading(EntryAddress)
}
