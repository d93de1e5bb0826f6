import ReadingList

/// Reading lists: loading one is a job of its own, which only `cancelReadingList` stops.
public enum ReadingListEffect: Sendable, Equatable {
    /// Read (or download) a reading list and check it; it arrives as `readingListLoaded`.
    case loadReadingList(source: String)
    case cancelReadingList
    /// Add a checked list to the tree, with its page notes or without.
    case importReadingList(DecodedReadingList, fallbackName: String, includeNotes: Bool)
}
