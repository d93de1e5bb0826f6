import Foundation
import BibModel

/// A page asked for by a person: what they read, type or cite is the printed page (its label);
/// `#N` forces the Nth page of the file.
public enum PageRequest: Sendable, Equatable {
    /// The page printed with this label (`151`, `xii`, `A-3`), as a citation or `:151` means it.
    case printed(String)
    /// The page at this place in the file, counted from 1 (`#12`); what bookmarks, notes and
    /// saved positions store.
    case physical(Int)

    /// Reads typed text (`:` in the reader, `read --page`): `#12` is the 12th page of the file,
    /// anything else the printed page it names. Nil for empty text or a `#` without a number.
    public init?(typed text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.hasPrefix("#") else {
            self = .printed(trimmed)
            return
        }
        let digits = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else { return nil }
        self = .physical(number)
    }

    /// Page `number` as a link or citation counts it: printed, or a page of the file.
    public init(_ number: Int, numbering: PageNumbering) {
        self = numbering == .physical ? .physical(number) : .printed(String(number))
    }

    /// The first page a link or citation points at in `paper`, if any.
    public init?(firstPageOf paper: PaperReference) {
        guard let first = paper.firstPage else { return nil }
        self.init(first, numbering: paper.numbering)
    }

    /// As typed: `xii` or `#12`.
    public var typed: String {
        switch self {
        case .printed(let label): return label
        case .physical(let number): return "#\(number)"
        }
    }
}

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
