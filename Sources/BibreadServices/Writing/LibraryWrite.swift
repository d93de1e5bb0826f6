/// What ``LibraryFileWriter/write(path:loaded:command:waiting:transform:check:)`` did.
public struct LibraryWrite: Sendable {
    /// The file written: the library's path with links resolved (a link stays a link; its
    /// target gets the new version).
    public let path: String
    /// Set when someone else wrote the file after it was loaded: the stamp of what was loaded
    /// and of what the transform was given instead (the file as it was found).
    public let externalChange: (loaded: LoadedFileStamp, found: LoadedFileStamp)?
    /// False when the transform gave back the bytes it was given: nothing was written and no
    /// version kept.
    public let wrote: Bool
    /// The file's bytes now …
    public let bytes: [UInt8]
    /// … and their stamp, for the next write.
    public let stamp: LoadedFileStamp
}

/// What ``LibraryFileWriter/undo(path:waiting:)`` put back.
public struct LibraryUndo: Sendable {
    /// The file (a link's target).
    public let path: String
    /// The edit undone.
    public let edit: WriteHistoryEntry
    /// How many earlier edits can still be undone.
    public let remaining: Int
    /// The file's bytes now (the version before the edit) …
    public let bytes: [UInt8]
    /// … and their stamp.
    public let stamp: LoadedFileStamp
}
