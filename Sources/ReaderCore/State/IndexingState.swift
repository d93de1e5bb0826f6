import BibModel

/// How far the full-text index of the library's PDFs is.
public struct IndexingState: Sendable, Equatable {
    public var done: Int
    public var total: Int
}
