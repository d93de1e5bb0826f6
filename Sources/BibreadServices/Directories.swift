import DiskIO
import Foundation
import SyncEngine
import TOMLKit

/// Where bibread keeps its files, by the XDG base directory rules.
public struct Directories: Sendable {
    public let config: URL
    public let state: URL

    /// The directories for an environment (`XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `HOME`).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let base = BaseDirectories(environment: environment)
        config = base.config
        state = base.state
    }
}
