/// The background jobs that can be stopped, each on its own: stopping one never stops another.
public enum BackgroundJob: Sendable, Hashable, CaseIterable {
    /// Downloading one linked file from the remote.
    case download
    /// Syncing the library's remote.
    case sync
    /// Reading (or downloading) a reading list.
    case readingList
    /// Bringing the full-text index up to date.
    case indexing
}
