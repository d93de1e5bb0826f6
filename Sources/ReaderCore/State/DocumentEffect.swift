import BibreadValues

/// Work on a PDF being read.
public enum DocumentEffect: Sendable, Equatable {
    case openDocument(path: String, password: String?)
    case extractPage(path: String, page: Int, mode: ReadingMode)
    /// Read the open document's page labels and outline (they arrive as `documentDetails`): a
    /// long PDF's are read after its first page is shown, not before.
    case readDocumentDetails(path: String)
    /// Find the query in the pages after `fromPage` (or before it, when not `forward`), going
    /// round the end back to `fromPage` itself; a page matches when its lines, as the reading
    /// view shows them in `mode` at `width` columns, hold the query.
    case findInDocument(path: String, query: String, fromPage: Int, forward: Bool, mode: ReadingMode, width: Int)
}
