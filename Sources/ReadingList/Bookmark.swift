/// A bookmark to pages of a paper.
public struct Bookmark: Sendable, Equatable {
    public var name: String
    public var reference: PageReference
    /// Notes for the pages `reference.pages`, in order (empty strings for pages without one);
    /// empty when the list carries no page notes.
    public var notes: [String]

    public init(name: String, reference: PageReference, notes: [String] = []) {
        self.name = name
        self.reference = reference
        self.notes = notes
    }
}
