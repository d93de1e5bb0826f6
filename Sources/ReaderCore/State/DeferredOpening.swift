import BibreadValues

/// A document opened before its page labels were read, and opened at a chosen page: which page
/// a printed page (or the last page's name) is, is known only with the labels, so the opening
/// waits for them (`ReadingState.deferredOpening`).
public struct DeferredOpening: Sendable, Equatable {
    public let info: DocumentInfo
    public let resumePage: Int?
    public let resumeScroll: Double
    public let mode: ReadingMode?
    public let readElsewhere: String?
}
