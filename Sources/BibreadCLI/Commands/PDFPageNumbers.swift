import BibModel
import PDFText
import ReaderCore
import SyncEngine

/// The page numbering of a reference's PDF, for commands that take pages (`bookmarks add`,
/// `open --print`), read by the reader's one rule (`DocumentInfo.resolve`).
enum PDFPageNumbers {
    /// The numbering of the first PDF of `entry` on this machine; nil when there is none or it
    /// cannot be read (missing, encrypted, damaged).
    static func info(of entry: Entry?) -> DocumentInfo? {
        guard let path = entry?.links.files.first(where: \.isPDF).flatMap({ LinkedFileLocator.shared.localPath(of: $0) }),
              let document = try? PDFDocument(path: path) else { return nil }
        return DocumentInfo(pageCount: document.pageCount, title: nil, labels: document.pageLabels, outline: [])
    }
}
