import BibModel

/// A problem with an entry, with the registry key it concerns (for its place in the file).
struct EntryIssue: Equatable, Sendable {
    /// The TOML key (`argv`, `stdin`…), or nil for the entry as a whole.
    var key: String?
    var message: String
}
