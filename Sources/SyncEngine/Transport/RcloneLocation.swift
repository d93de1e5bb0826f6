import BibModel
import Foundation

/// Where an rclone remote's root is, in rclone's own terms: `rclone:gdrive:Papers/Lab` is the
/// folder `Papers/Lab` of the remote `gdrive` of the user's rclone configuration (rclone reads
/// `$RCLONE_CONFIG`, else its default `~/.config/rclone/rclone.conf`).
public struct RcloneLocation: Sendable, Equatable {
    /// What a remote's URL starts with.
    public static let scheme = "rclone:"

    /// The root as rclone takes it: `gdrive:Papers/Lab` (no "/" at the end).
    public let root: String

    /// Reads `rclone:REMOTE:path`. Refused: no remote name before a colon, a root that rclone
    /// would read as an option (`-…`), control characters.
    public init(url: String) throws {
        guard url.hasPrefix(Self.scheme) else { throw RemoteError.unsupportedURL(url) }
        var spec = String(url.dropFirst(Self.scheme.count))
        guard let colon = spec.firstIndex(of: ":"), colon != spec.startIndex, !spec.hasPrefix("-"),
              !spec.unicodeScalars.contains(where: TerminalText.isControl) else {
            throw RemoteError.unsupportedURL(url)
        }
        // "gd:Papers/" and "gd:Papers" are one folder; "gd:/" (an absolute root) stays.
        while spec.hasSuffix("/") && spec.index(before: spec.endIndex) > spec.index(after: colon) { spec.removeLast() }
        root = spec
    }

    /// The remote's name in rclone's configuration (`gdrive`), or its connection string.
    public var remoteName: String { String(root[..<(root.firstIndex(of: ":") ?? root.endIndex)]) }

    /// The folder inside the remote (`Papers/Lab`; "" for its top).
    public var folder: String {
        root.firstIndex(of: ":").map { String(root[root.index(after: $0)...]) } ?? ""
    }

    /// The name bibread keeps the remote under: the last folder of the path, else the remote's name.
    public var derivedName: String {
        RemoteName.derived(path: folder, host: remoteName)
    }

    /// The path from the root of an rclone path ``rclonePath(_:)`` made; nil for one outside the root.
    public func relativePath(of rclonePath: String) -> String? {
        guard rclonePath.hasPrefix(root) else { return nil }
        var rest = rclonePath.dropFirst(root.count)
        if !root.hasSuffix(":") && !root.hasSuffix("/") {
            guard rest.first == "/" else { return nil }
            rest = rest.dropFirst()
        }
        return rest.isEmpty ? nil : String(rest)
    }

    /// The rclone path of `path` (relative to the root, checked by ``RemotePath/validated(_:)``;
    /// "" is the root itself).
    public func rclonePath(_ path: String) throws -> String {
        guard !path.isEmpty else { return root }
        let safe = try RemotePath.validated(path)
        return root.hasSuffix(":") || root.hasSuffix("/") ? root + safe : root + "/" + safe
    }
}
