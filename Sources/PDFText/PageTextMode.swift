import CPoppler
import Foundation

/// Which text of a page: in reading order, or in its physical layout.
public enum PageTextMode: String, Sendable, Hashable, CaseIterable {
    /// `PDFDocument.text(ofPage:)`.
    case reading
    /// `PDFDocument.layoutText(ofPage:)`.
    case layout
    /// `PDFDocument.reflowText(ofPage:)`.
    case reflow
}
