import BibModel
import BibreadValues

/// The full-text index of the library's PDFs.
public enum FullTextEffect: Sendable, Equatable {
    /// Bring the full-text index up to date with the library's PDFs (new and changed ones read).
    case updateFullTextIndex
    /// Look `text:` terms up in the full-text index.
    case searchFullText([FullTextTerm])
    /// The best pages of these references (positions) for the terms: the ones on screen.
    case loadFullTextPages([FullTextTerm], positions: [Int])
}
