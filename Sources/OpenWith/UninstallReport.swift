import Foundation

/// What ``DesktopIntegration/uninstall(dataHome:configHome:)`` did.
public struct UninstallReport: Sendable, Equatable {
    /// The desktop file, if there was one to remove.
    public var removedDesktopFile: URL?
    /// The `mimeapps.list` files that named bibread.desktop for `bibread:` links and no longer do.
    public var editedAssociations: [URL]
}
