import Foundation
import PropertyList

/// Folders whose files live elsewhere on this machine: a synced remote's library folder (and the
/// absolute folders its path mapping names) map to its PDF cache.
public final class LinkedFileAliases: @unchecked Sendable {
    /// The process's aliases, registered when a synced library is opened.
    public static let shared = LinkedFileAliases()

    private let lock = NSLock()
    private var folders: [(from: String, to: String)] = []
    private var absent: Set<String> = []

    /// Files under `folder` are found under `target` (same relative path).
    public func register(folder: String, as target: String) {
        let from = folder.hasSuffix("/") ? folder : folder + "/"
        let to = target.hasSuffix("/") ? target : target + "/"
        lock.withLock {
            folders.removeAll { $0.from == from }
            folders.append((from, to))
            folders.sort { $0.from.count > $1.from.count }
        }
    }

    /// Notes the aliased paths under `folder` whose files the remote does not have (a sync
    /// looked for them), in place of those noted for that folder before.
    public func setAbsent(_ paths: some Sequence<String>, under folder: String) {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        lock.withLock {
            absent = absent.filter { !$0.hasPrefix(prefix) }.union(paths)
        }
    }

    /// Whether `aliasPath` (a path `alias(of:)` gave) is a file the remote does not have.
    public func isAbsent(_ aliasPath: String) -> Bool {
        lock.withLock { absent.contains(aliasPath) }
    }

    /// The aliased path of `path`, if it is under a registered folder.
    public func alias(of path: String) -> String? {
        let normalised = path.utf8.contains(UInt8(ascii: "\\")) ? path.replacingOccurrences(of: "\\", with: "/") : path
        return lock.withLock {
            folders.first { normalised.hasPrefix($0.from) }.map { $0.to + normalised.dropFirst($0.from.count) }
        }
    }
}
