extension ReferenceLink {
    /// The most characters of text `parse(_:)` and `parseTarget(_:)` read (white space around it not counted).
    public static let maxLength = 8192
    /// The most papers one link or citation may name.
    public static let maxPapers = 200
    /// The highest page number accepted (pages start at 1).
    public static let maxPage = 1_000_000
    /// The most characters a cite key may have.
    public static let maxKeyLength = 256
    /// The most characters a library name may have.
    public static let maxLibraryLength = 256
}
