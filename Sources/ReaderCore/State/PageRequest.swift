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
