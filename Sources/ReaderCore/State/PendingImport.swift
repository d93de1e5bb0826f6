import ReadingList

/// A list read and checked, waiting for the user to say whether its page notes come too.
public struct PendingImport: Sendable, Equatable {
    public let decoded: DecodedReadingList
    public let source: String
    public let fallbackName: String
}
