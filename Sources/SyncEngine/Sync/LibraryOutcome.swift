import BibModel
import Foundation

/// What happened to one .bib file.
public enum LibraryOutcome: Sendable, Equatable {
    case updated(entries: Int)
    case unchanged
    case rejected(reason: String, keptAt: String)
    /// A dry run fetched a newer copy, which a sync would put in place.
    case wouldUpdate
    /// A dry run fetched a newer copy, which a sync would refuse (and keep aside).
    case wouldBeRejected(reason: String)
}
