import Foundation
import BibModel

extension DocumentInfo {
    /// The page `request` names, read from page 1, when it can be told without the label of
    /// every page; nil when it cannot, and then `resolve` with every label says (it gives the
    /// same page whenever this gives one).
    ///
    /// `#N` within the document needs no label. For a printed page the candidates are the page
    /// `candidate` gives, one that the document's own page-label ranges print with that text
    /// (poppler's look-up, which reads the page tree only up to that page), and, for a number,
    /// the page of the file with that number (a page without a label is printed with its
    /// number). When a candidate's label is the text exactly, the first page with that label,
    /// which `resolve` names, is one of pages 1 to that candidate: only their labels are read
    /// (`labels(through:)`, which must give what `labels` would for them). Anything else (no
    /// candidate so labelled, a label that matches only without regard to case, a number that no
    /// page is printed with) is left to `resolve`.
    public static func firstPage(of request: PageRequest, pageCount: Int, candidate: (String) -> Int?,
                                 labels: (_ through: Int) -> [String]) -> Int? {
        switch request {
        case .physical(let number):
            return number >= 1 && number <= pageCount ? number : nil
        case .printed(let text):
            let wanted = text.trimmingCharacters(in: .whitespaces)
            guard !wanted.isEmpty else { return nil }
            var candidates = candidate(wanted).map { [$0] } ?? []
            if wanted.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(wanted) { candidates.append(number) }
            for found in Set(candidates).sorted() where found >= 1 && found <= pageCount {
                let known = labels(found)
                guard known.count == found, known[found - 1] == wanted else { continue }
                return (known.firstIndex(of: wanted) ?? found - 1) + 1
            }
            return nil
        }
    }
}
