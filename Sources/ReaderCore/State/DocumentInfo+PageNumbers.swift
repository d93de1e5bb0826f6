import Foundation
import BibModel

extension DocumentInfo {
    /// Resolves a page request by the one rule for page numbers, reading from page `current`.
    ///
    /// `#N` is the Nth page of the file. A label names the page printed with it, compared
    /// exactly, else without regard to case (`IV`, `iv`). A label that occurs more than once
    /// (a body and an appendix both numbered from 1) names the first page with it at or after
    /// `current`, else the first in the document. A number that is no page's label is the page
    /// of the file with that number (`noSuchLabel`, so that the caller says so), when there is
    /// one; past the last page it is `pastTheEnd`.
    public func resolve(_ request: PageRequest, from current: Int = 1) -> PageResolution {
        switch request {
        case .physical(let number):
            return number >= 1 && number <= pageCount ? .page(number) : .pastTheEnd(request.typed)
        case .printed(let text):
            let wanted = text.trimmingCharacters(in: .whitespaces)
            var matches = labels.indices.filter { labels[$0] == wanted }
            if matches.isEmpty {
                let folded = wanted.lowercased()
                matches = labels.indices.filter { labels[$0].lowercased() == folded }
            }
            if !wanted.isEmpty, let first = matches.first {
                return .page((matches.first { $0 + 1 >= current } ?? first) + 1)
            }
            guard !wanted.isEmpty, wanted.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(wanted), number >= 1 else {
                return .notFound(wanted)
            }
            return number <= pageCount ? .noSuchLabel(wanted, physical: number) : .pastTheEnd(wanted)
        }
    }

    /// What to say about a resolution on the message line: why the page shown is not the one
    /// asked for, or why there is none. Empty for `.page`.
    public func note(on resolution: PageResolution) -> String {
        let pages = "\(pageCount) page\(pageCount == 1 ? "" : "s")"
        switch resolution {
        case .page:
            return ""
        case .noSuchLabel(let label, let physical):
            let printed = distinctLabel(ofPage: physical).map { ", printed \($0)" } ?? ""
            return "No page is labelled \(label): showing page #\(physical) of the file\(printed)"
        case .pastTheEnd(let asked):
            return "p. \(asked) is past the end of the PDF (\(pages))"
        case .notFound(let asked):
            return "No page '\(asked)' in the PDF: give a printed page (\(exampleLabels)) or #1 to #\(pageCount) for pages of the file"
        }
    }

    /// How the screen names a page: the printed page first, then the page of the file when they
    /// differ (`p. 1000 (1031 of 2415)`, `p. xii (12 of 300)`), else just `p. 7`.
    public func pageName(_ page: Int) -> String {
        guard let label = distinctLabel(ofPage: page) else { return "p. \(page)" }
        return "p. \(label) (\(page) of \(pageCount))"
    }

    /// The first and last labels, for messages: `i–229` or `1–11`.
    private var exampleLabels: String {
        guard let first = labels.first, let last = labels.last else { return "none" }
        return first == last ? first : "\(first)–\(last)"
    }
}
