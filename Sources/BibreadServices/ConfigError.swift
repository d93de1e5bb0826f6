import Foundation
import SyncEngine
import TOMLKit

/// A problem in config.toml.
struct ConfigError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
