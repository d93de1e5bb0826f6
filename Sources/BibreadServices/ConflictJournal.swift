import BibModel
import Checksums
import Foundation
import SyncEngine

/// A journal that holds conflicts, with where its library files are: a synced remote's journal
/// (beside its library, the files named by their path on the remote), or the journal of a
/// library that is not synced by bibread (under `$XDG_STATE_HOME/bibread/journals/`, the files
/// named by their absolute path), which `bibread merge-conflicted` writes when a sync client's
/// conflicted copy is folded into a library in a Dropbox or Nextcloud folder.
public struct ConflictJournal: Sendable {
    /// The synced remote's name, or nil for a library bibread does not sync.
    public let remote: String?
    public let journal: EditJournal
    private let libraryFolder: URL?

    /// The journals of the remotes named `remoteNames` that have one, then every local one.
    public static func all(remoteNames: [String],
                           environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [ConflictJournal] {
        var found: [ConflictJournal] = []
        for name in remoteNames {
            let locations = RemoteLocations(name: name, environment: environment)
            guard let journal = try locations.existingJournal() else { continue }
            found.append(ConflictJournal(remote: name, journal: journal, libraryFolder: locations.library))
        }
        let folder = localFolder(environment: environment)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".sqlite") {
            found.append(ConflictJournal(remote: nil, journal: try EditJournal(url: folder.appendingPathComponent(name)), libraryFolder: nil))
        }
        return found
    }

    /// The journal that keeps the conflicts of the library file at `path` (made when needed): its
    /// remote's for a synced library, else a local one; and the name it gives the file.
    public static func forLibrary(at path: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (ConflictJournal, file: String) {
        let place = place(ofLibraryAt: path, environment: environment)
        return (ConflictJournal(remote: place.remote, journal: try EditJournal(url: place.url), libraryFolder: place.libraryFolder), place.file)
    }

    /// The journal of the library file at `path` and the name it gives the file, when one was
    /// ever written (nil: none is made).
    public static func existing(forLibraryAt path: String,
                                environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (ConflictJournal, file: String)? {
        let place = place(ofLibraryAt: path, environment: environment)
        guard FileManager.default.fileExists(atPath: place.url.path) else { return nil }
        return (ConflictJournal(remote: place.remote, journal: try EditJournal(url: place.url), libraryFolder: place.libraryFolder), place.file)
    }

    /// Where the journal of the library file at `path` is, and how it names the file.
    private static func place(ofLibraryAt path: String,
                              environment: [String: String]) -> (remote: String?, url: URL, libraryFolder: URL?, file: String) {
        if let (locations, file) = RemoteLocations.owningFile(path, environment: environment) {
            return (locations.name, locations.journal, locations.library, file)
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let url = localFolder(environment: environment).appendingPathComponent(SHA256.hex(of: Array(absolute.utf8)).prefix(16) + ".sqlite")
        return (nil, url, nil, absolute)
    }

    /// The local path of a library file as this journal names it.
    public func localPath(of file: String) throws -> String {
        guard let libraryFolder else { return file }
        return try RemotePath.local(file, under: libraryFolder).path
    }

    /// How a conflict's place is shown: `remote: file` for a synced library, the path otherwise.
    public func place(of file: String) -> String {
        remote.map { "\($0): \(file)" } ?? file
    }

    /// `$XDG_STATE_HOME/bibread/journals/`.
    private static func localFolder(environment: [String: String]) -> URL {
        Directories(environment: environment).state.appendingPathComponent("journals")
    }
}
