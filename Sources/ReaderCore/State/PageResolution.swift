import Foundation
import BibModel

/// Where a page request lands in a document.
public enum PageResolution: Sendable, Equatable {
    /// The page asked for.
    case page(Int)
    /// No page is printed with this number: the page of the file with that number instead.
    case noSuchLabel(String, physical: Int)
    /// A number past the last page (`typed` as asked: `12` or `#12`).
    case pastTheEnd(String)
    /// No page has this label, and it is no number.
    case notFound(String)

    /// The page to show, if there is one.
    public var page: Int? {
        switch self {
        case .page(let page), .noSuchLabel(_, let page): return page
        case .pastTheEnd, .notFound: return nil
        }
    }
}
