import CPoppler
import Foundation

/// Why a PDF could not be opened or read.
public enum PDFError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case encrypted(path: String)
    case pageOutOfRange(page: Int, count: Int)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "\(path): cannot open PDF: \(reason)"
        case .encrypted(let path): return "\(path): the PDF is encrypted; a password is needed"
        case .pageOutOfRange(let page, let count): return "page \(page) is out of range (the document has \(count) pages)"
        }
    }
}

/// A PDF opened with poppler-glib; the document is released when the last reference goes.
public final class PDFDocument: @unchecked Sendable {
    private let document: OpaquePointer
    /// The path the document was opened from.
    public let path: String

    /// Opens the PDF at `path`, with an optional password.
    public init(path: String, password: String? = nil) throws {
        self.path = path
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        var error: UnsafeMutablePointer<GError>?
        guard let handle = poppler_document_new_from_file(absolute, password, &error) else {
            defer { if error != nil { g_error_free(error) } }
            if cpoppler_error_is_encrypted(error) != 0 { throw PDFError.encrypted(path: path) }
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            throw PDFError.cannotOpen(path: path, reason: reason)
        }
        document = handle
    }

    deinit {
        cpoppler_document_unref(document)
    }

    /// The number of pages.
    public var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    /// The text of page `number` (1-based) in poppler's reading order.
    public func text(ofPage number: Int) throws -> String {
        guard number >= 1 && number <= pageCount else { throw PDFError.pageOutOfRange(page: number, count: pageCount) }
        guard let page = poppler_document_get_page(document, Int32(number - 1)) else {
            throw PDFError.pageOutOfRange(page: number, count: pageCount)
        }
        defer { cpoppler_page_unref(page) }
        guard let text = poppler_page_get_text(page) else { return "" }
        defer { g_free(text) }
        return String(cString: text)
    }
}
