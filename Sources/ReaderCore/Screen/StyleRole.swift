import BibModel

/// What a cell means on screen; the backend maps each role to colours and attributes.
public enum StyleRole: UInt8, Sendable, CaseIterable {
    case normal, dim, header, border, title, accent, selection, selectionUnfocused, status, statusKey,
         searchBar, searchMatch, message, error, mark, overlay
}
