import PropertyList

/// A reading list as read, with the format it was in and any warnings.
public struct DecodedReadingList: Sendable, Equatable {
    /// The list.
    public let list: ReadingList
    /// The format the bytes were in.
    public let format: ReadingListFormat
    /// Problems that did not stop the list from being read (e.g. page notes ignored).
    public let warnings: [ListProblem]

    /// Wraps a decoded list with its format and warnings.
    public init(list: ReadingList, format: ReadingListFormat, warnings: [ListProblem]) {
        self.list = list
        self.format = format
        self.warnings = warnings
    }
}
