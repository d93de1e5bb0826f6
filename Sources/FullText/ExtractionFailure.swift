import Foundation
import PDFText
#if canImport(Glibc)
import Glibc
#endif

/// Why a PDF could not be indexed, as the summary and the `file` table tell it.
struct ExtractionFailure: Error, Equatable {
    let reason: String

    init(_ error: any Error) {
        switch error {
        case PDFError.encrypted: reason = "encrypted: a password is needed"
        case PDFError.wrongPassword: reason = "encrypted: the password is wrong"
        case PDFError.cannotOpen(_, let why): reason = "cannot open: \(why)"
        case PDFError.unreadable(_, let why): reason = "cannot read: \(why)"
        case PDFError.noPages: reason = "no page can be read: its page tree is damaged"
        default: reason = String(describing: error)
        }
    }
}
