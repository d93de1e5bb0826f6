import Foundation

/// bibread's folders by the XDG base directory rules: `$XDG_CONFIG_HOME/bibread` and its
/// siblings, each falling back under `$HOME` when the variable is unset or not absolute (the
/// spec says a relative value is to be ignored).
public struct BaseDirectories: Sendable, Equatable {
    public let config: URL
    public let state: URL
    public let data: URL
    public let cache: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        func base(_ variable: String, _ fallback: String) -> URL {
            let folder = environment[variable].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            return (folder ?? home.appendingPathComponent(fallback)).appendingPathComponent("bibread")
        }
        config = base("XDG_CONFIG_HOME", ".config")
        state = base("XDG_STATE_HOME", ".local/state")
        data = base("XDG_DATA_HOME", ".local/share")
        cache = base("XDG_CACHE_HOME", ".cache")
    }
}
