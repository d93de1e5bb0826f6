import CPoppler
import Foundation

/// Why a PDF could not be opened or read.
public enum PDFError: Error, Equatable, CustomStringConvertible {
    case libraryUnavailable(String)
    case cannotOpen(path: String, reason: String)
    case encrypted(path: String)
    case pageOutOfRange(page: Int, count: Int)

    public var description: String {
        switch self {
        case .libraryUnavailable(let reason): return "cannot read PDFs: \(reason)"
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
        try Poppler.ensureLoaded()
        self.path = path
        let uri = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        var status = CPOPPLER_OK
        var message: UnsafeMutablePointer<CChar>?
        guard let handle = cpoppler_document_open(uri, password, &status, &message) else {
            defer { cpoppler_free(message) }
            if status == CPOPPLER_ERROR_ENCRYPTED { throw PDFError.encrypted(path: path) }
            throw PDFError.cannotOpen(path: path, reason: message.map { String(cString: $0) } ?? "unknown error")
        }
        document = handle
    }

    deinit {
        cpoppler_document_release(document)
    }

    /// The number of pages.
    public var pageCount: Int { Int(cpoppler_document_page_count(document)) }

    /// The text of page `number` (1-based) in poppler's reading order.
    public func text(ofPage number: Int) throws -> String {
        guard number >= 1 && number <= pageCount, let page = cpoppler_document_page(document, Int32(number - 1)) else {
            throw PDFError.pageOutOfRange(page: number, count: pageCount)
        }
        defer { cpoppler_page_release(page) }
        guard let text = cpoppler_page_text(page) else { return "" }
        defer { cpoppler_free(text) }
        return String(cString: text)
    }
}

/// The poppler-glib library, opened on first use.
public enum Poppler {
    /// Opens poppler-glib if it is not open yet.
    public static func ensureLoaded() throws {
        if let reason = cpoppler_load() { throw PDFError.libraryUnavailable(String(cString: reason)) }
    }

    /// The poppler version, such as `22.12.0`.
    public static var version: String {
        get throws {
            try ensureLoaded()
            return cpoppler_version().map { String(cString: $0) } ?? "unknown"
        }
    }
}
