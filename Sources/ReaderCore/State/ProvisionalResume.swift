/// The "Resumed at" message shown before a document's page labels were read, which names the
/// page by its number: said again with the page's label once they are, unless another message
/// replaced it (`ReadingState.provisionalResume`).
public struct ProvisionalResume: Sendable, Equatable {
    /// The message as shown.
    public let shown: String
    public let page: Int
    public let readElsewhere: String?
}
