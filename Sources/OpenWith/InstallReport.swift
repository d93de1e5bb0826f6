import Foundation

/// What ``DesktopIntegration/install(bibreadExecutable:dataHome:xdgMime:environment:)`` did.
public struct InstallReport: Sendable, Equatable {
    /// The desktop file written.
    public var desktopFile: URL
    /// How registering it as the handler of `bibread:` links went.
    public var xdgMime: XDGMimeOutcome

    /// Whether the file is written and registered (xdg-mime ran and exited with 0).
    public var isRegistered: Bool { xdgMime == .ran(.exited(0)) }
}
