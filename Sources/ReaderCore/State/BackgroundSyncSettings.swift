/// What the reader does with its library's remote on its own (issue 30): the shell fills it
/// from config.toml and the library; update reads it.
public struct BackgroundSyncSettings: Sendable, Equatable {
    /// The remote the library is synced from (its name); nil when it is not a synced library.
    public var remote: String?
    /// Whether quitting during a sync may leave it to a `bibread sync` in the background (the
    /// program that runs the reader can start one).
    public var canDetach = false

    public init(remote: String? = nil, canDetach: Bool = false) {
        self.remote = remote
        self.canDetach = canDetach
    }
}
