import Dispatch
import PDFText

/// A PDF's page labels, read on another thread from an opening of the file of their own while
/// the caller reads a page from its document: poppler reads every page of the document for the
/// labels, and one document serves one thread at a time.
final class BackgroundPageLabels: @unchecked Sendable {
    // @unchecked Sendable: `labels` is written once, before `ready` is signalled, and read after.
    private let ready = DispatchSemaphore(value: 0)
    private var labels: [String] = []

    /// Starts reading the labels of `document`'s file (from `document` itself when the file
    /// does not open again).
    init(of document: PDFDocument, password: String?) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            labels = ((try? PDFDocument(path: document.path, password: password)) ?? document).pageLabels
            ready.signal()
        }
    }

    /// The labels (`PDFDocument.pageLabels`), once read.
    var value: [String] {
        ready.wait()
        defer { ready.signal() }
        return labels
    }
}
