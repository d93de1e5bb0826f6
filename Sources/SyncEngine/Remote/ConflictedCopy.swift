import Foundation

/// A copy of a library file that a sync client made when two machines changed it at once, beside
/// the library: Dropbox's `library (Jane's conflicted copy 2024-03-01).bib`, the Nextcloud and
/// ownCloud clients' `library (conflicted copy 2024-03-01 101530).bib` (in the user's language)
/// and `library_conflict-20240301-101530.bib`, Syncthing's
/// `library.sync-conflict-20240301-101530-ABCDEFG.bib`. Its changes are not in the library.
public struct ConflictedCopy: Sendable, Equatable {
    /// The sync client whose naming it follows.
    public enum Client: String, Sendable {
        case dropboxOrNextcloud = "Dropbox or Nextcloud"
        case ownCloud = "ownCloud"
        case syncthing = "Syncthing"
    }

    public let path: String
    public let client: Client

    /// The conflicted copies in the folder of the library file at `path`, by name.
    public static func beside(_ path: String) -> [ConflictedCopy] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.sorted().compactMap { name in
            client(ofCopyNamed: name, of: url.lastPathComponent).map { ConflictedCopy(path: folder.appendingPathComponent(name).path, client: $0) }
        }
    }

    /// The client that names a conflicted copy of `library` (a file name) so, if `name` is one.
    public static func client(ofCopyNamed name: String, of library: String) -> Client? {
        let dot = library.lastIndex(of: ".") ?? library.endIndex
        let stem = String(library[..<dot])
        let suffix = String(library[dot...])
        guard name != library, name.hasPrefix(stem), name.hasSuffix(suffix), name.count > stem.count + suffix.count else { return nil }
        let middle = String(name.dropFirst(stem.count).dropLast(suffix.count))
        if matches(middle, #"^ \((?=[^)]*(?i:conflict|konflikt|conflit|conflitto|conflicto|conflicte|\d{4}-\d{2}-\d{2}))[^)]*\)( \(\d+\))?$"#) {
            return .dropboxOrNextcloud
        }
        if matches(middle, #"^_conflict-\d{8}-\d{6}$"#) { return .ownCloud }
        if matches(middle, #"^\.sync-conflict-\d{8}-\d{6}(-[A-Z0-9]{7})?$"#) { return .syncthing }
        return nil
    }

    private static func matches(_ text: String, _ pattern: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }
}
