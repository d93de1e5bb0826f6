import Foundation

/// The entries of a remote's listing that a sync may use. A server (or a folder) can list a
/// name bibread refuses: one that climbs out with `..`, holds a NUL byte, is absolute or over
/// 255 bytes. Each such entry is left out with a message, and the rest of the listing is used.
enum ListingCheck {
    /// The entries of `listing` whose paths are safe (as ``RemotePath/validated(_:)`` makes
    /// them), and one message for each entry left out.
    static func usable(_ listing: [RemoteFile]) -> (entries: [RemoteFile], refused: [String]) {
        var entries: [RemoteFile] = []
        var refused: [String] = []
        for var entry in listing {
            do {
                entry.path = try RemotePath.validated(entry.path)
                entries.append(entry)
            } catch {
                refused.append("left out an entry of the remote's listing: \(error)")
            }
        }
        return (entries, refused)
    }
}
