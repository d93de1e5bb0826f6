/// Says where linked files are on this machine. The model asks it and never looks at the disk
/// itself; `SyncEngine`'s `LinkedFileLocator` is the one that does (it also knows the caches of
/// synced libraries).
public protocol LinkedFileLocating: Sendable {
    /// Where `file` is: at its path, as a synced copy in a cache, only on its remote, or nowhere.
    func location(of file: LinkedFile) -> FileLocation

    /// Whether the library file at `path` is a synced remote's copy (so that its PDFs may be on
    /// the remote only).
    func isSyncedCopy(_ path: String) -> Bool
}

extension LinkedFileLocating {
    /// Where a reference's PDFs are.
    public func place(of entry: Entry) -> PDFPlace {
        PDFPlace(locations: entry.linkedFiles.filter(\.isPDF).map { location(of: $0) })
    }

    /// Whether any of the library's files is a synced remote's copy.
    public func isSynced(_ library: Library) -> Bool {
        library.files.contains { isSyncedCopy($0.source.path) }
    }
}
