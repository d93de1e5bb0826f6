import BibModel
import Foundation

/// Where linked files are on this machine: at their own path, or, for a synced remote's library,
/// in its PDF cache (the library folder, and the absolute folders of the remote's path mapping,
/// map to the cache). The files a sync looked for and the remote did not have are noted as
/// absent, so that they do not count as "on the remote only".
///
/// This is the one place that looks at the disk for linked files; the model and the reader's core
/// get its answers as values.
public final class LinkedFileLocator: LinkedFileLocating, @unchecked Sendable {
    /// The process's locator; `RemoteLocations.registerAliases` tells it about synced libraries.
    public static let shared = LinkedFileLocator()

    private let lock = NSLock()
    private var folders: [(from: String, to: String)] = []
    private var absent: Set<String> = []

    /// A locator that knows no synced library yet.
    public init() {}

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

    /// The aliased path of `path`, if it is under a registered folder.
    public func alias(of path: String) -> String? {
        let normalised = path.utf8.contains(UInt8(ascii: "\\")) ? path.replacingOccurrences(of: "\\", with: "/") : path
        return lock.withLock {
            folders.first { normalised.hasPrefix($0.from) }.map { $0.to + normalised.dropFirst($0.from.count) }
        }
    }

    public func location(of file: LinkedFile) -> FileLocation {
        if LinkedFileLocator.isRegularFile(file.path) { return .local(file.path) }
        guard let alias = alias(of: file.path) else { return .missing }
        if LinkedFileLocator.isRegularFile(alias) { return .cached(alias) }
        return lock.withLock { absent.contains(alias) } ? .missing : .remoteOnly
    }

    public func isSyncedCopy(_ path: String) -> Bool {
        alias(of: path) != nil
    }

    /// Where `file` is on this machine (its path, or its synced copy); nil when it is not here.
    public func localPath(of file: LinkedFile) -> String? {
        location(of: file).path
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
