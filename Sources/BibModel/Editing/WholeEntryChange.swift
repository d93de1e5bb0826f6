/// A whole reference put into a file or taken out of it (`LibraryEditor.insertEntry(_:after:)`,
/// `LibraryEditor.removeEntry(at:)`), as an `EditResult` records it for `EditCheck`.
public enum WholeEntryChange: Sendable, Equatable {
    /// The entry written at the result's entry index, as it stands in the new file (its text in
    /// the file's line endings, from its `@` to its closing delimiter).
    case inserted(text: String)
    /// The entry that was at the result's entry index is gone, with the blank line before it.
    case removed
}
