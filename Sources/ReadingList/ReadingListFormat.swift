/// The ways a reading list is written down.
public enum ReadingListFormat: String, Sendable, CaseIterable {
    /// An XML property list with Apple's DTD.
    case xml
    /// A binary property list (`bplist00`).
    case binary
    /// JSON of the same shape as the property lists (an object at the root).
    case json

    /// The format's name in messages: "XML property list", "binary property list", "JSON".
    public var displayName: String {
        switch self {
        case .xml: return "XML property list"
        case .binary: return "binary property list"
        case .json: return "JSON"
        }
    }
}
