import DiskIO

/// Why a PDF could not be opened or read.
public enum PDFError: Error, Equatable, CustomStringConvertible {
    /// poppler-glib is missing or lacks a function bibread needs.
    case libraryUnavailable(String)
    /// The file is missing, unreadable, truncated, damaged or not a PDF; `reason` is poppler's
    /// message (poppler says "PDF document is damaged" for all of the last three).
    case cannotOpen(path: String, reason: String)
    /// The PDF is encrypted and no password was given.
    case encrypted(path: String)
    /// The PDF is encrypted and the password given is neither its user nor its owner password.
    case wrongPassword(path: String)
    /// A page number outside `1...count`.
    case pageOutOfRange(page: Int, count: Int)
    /// The page tree gives no page count poppler accepts (0, negative, not a number, more than
    /// the file's objects): poppler can read no page of it, whatever the tree holds.
    case noPages(path: String)
    /// A page the page tree counts (`claimed` pages) but does not hold: only pages 1 to
    /// `readable` can be read.
    case missingPage(page: Int, claimed: Int, readable: Int)
    /// A file could not be read (for a fingerprint); `reason` is the system's message.
    case unreadable(path: String, reason: String)
    /// The path is no regular file: `kind` says what it is (`a FIFO`, `a directory`).
    case notRegularFile(path: String, kind: String)

    /// Why `path` could not be opened as a regular file: `.notRegularFile`, else `.cannotOpen`
    /// with the system's message.
    init(_ error: RegularFileError, path: String) {
        switch error {
        case .notRegular(let kind): self = .notRegularFile(path: path, kind: kind)
        case .system, .tooLarge: self = .cannotOpen(path: path, reason: error.description)
        }
    }

    public var description: String {
        switch self {
        case .libraryUnavailable(let reason): return "cannot read PDFs: \(reason)"
        case .cannotOpen(let path, let reason): return "\(path): cannot open PDF: \(reason)"
        case .encrypted(let path): return "\(path): the PDF is encrypted; a password is needed"
        case .wrongPassword(let path): return "\(path): the password is wrong"
        case .pageOutOfRange(let page, let count):
            return "page \(page) is out of range (the document has \(count) page\(count == 1 ? "" : "s"))"
        case .noPages(let path):
            return "\(path): no page of this PDF can be read: its page tree is damaged (it gives no valid page count)"
        case .missingPage(let page, let claimed, let readable):
            let those = switch readable {
            case 0: "none"
            case 1: "only page 1"
            default: "only pages 1 to \(readable)"
            }
            return "page \(page) is not in the PDF: its page tree claims \(claimed) pages, but \(those) can be read"
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .notRegularFile(let path, let kind): return "\(path): not a regular file (\(kind))"
        }
    }
}
