import BibModel
import BibreadValues

/// The "open with" menu (`o`): the apps that can take the current reference, for an intention.
public struct OpenWithMenuState: Sendable, Equatable {
    /// The intention shown; nil shows every one (Tab cycles).
    public var intention: Intention?
    /// The menu's lines; nil while the shell works them out.
    public var items: [MenuItem]?
    /// What the apps get: file, page, key, link, BibTeX, URL, DOI, page text.
    public var values: HandlerValues
    /// What the menu is about (`knuth84 p. 12`).
    public var subject: String
    public var cursor = ListCursor()

    public init(intention: Intention?, values: HandlerValues, subject: String) {
        self.intention = intention
        self.values = values
        self.subject = subject
    }
}
