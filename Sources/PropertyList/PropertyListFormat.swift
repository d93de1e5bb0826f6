/// The two ways a property list is written down.
public enum PropertyListFormat: String, Sendable, CaseIterable {
    /// An XML property list (Apple's DTD).
    case xml
    /// A binary property list (`bplist00`).
    case binary

    /// The format's name in messages: "XML property list" or "binary property list".
    public var displayName: String {
        switch self {
        case .xml: return "XML property list"
        case .binary: return "binary property list"
        }
    }
}
