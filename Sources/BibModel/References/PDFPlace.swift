import Foundation
import PropertyList

/// Where a reference's PDFs are: on this machine, only on the remote its synced library
/// came from (listed there, not downloaded yet), or nowhere.
public enum PDFPlace: Int, Sendable {
    case nowhere = 0, here = 1, remoteOnly = 2

    /// Looks at the disk (and at the caches of synced libraries) for the entry's PDFs.
    public init(of entry: Entry) {
        let pdfs = entry.links.files.filter(\.isPDF)
        if pdfs.contains(where: \.exists) {
            self = .here
        } else {
            self = pdfs.contains(where: \.isRemote) ? .remoteOnly : .nowhere
        }
    }
}
