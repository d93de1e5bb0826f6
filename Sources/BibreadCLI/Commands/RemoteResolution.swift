import ArgumentParser
import BibreadServices
import Foundation
import SyncEngine

/// Finds a remote by name (config.toml, or one synced before) or URL.
enum RemoteResolution {
    /// `name` (`--name`) is the name a URL's library is kept under, instead of one derived from it.
    static func remote(named argument: String?, config: Config, keptAs name: String? = nil) throws -> Remote {
        guard let argument else {
            if config.remotes.count == 1, let only = config.remotes.first { return only }
            Console.error(config.remotes.isEmpty
                ? "bibread: name a remote URL (or add a [[remote]] to config.toml)"
                : "bibread: name a remote: \(config.remotes.map(\.name).joined(separator: ", "))")
            throw ExitCode(64)
        }
        if let configured = config.remotes.first(where: { $0.name == argument }) { return configured }
        do {
            var remote = try Remote(url: argument)
            if let name {
                remote.name = name
                return remote
            }
            let derived = remote.name
            remote.name = freeName(for: remote, configured: config.remotes)
            if remote.name != derived, RemoteLocations(name: remote.name).savedRemote() == nil {
                Console.error("bibread: '\(derived)' is kept for another remote; this one is kept as '\(remote.name)' (give --name to choose)")
            }
            return remote
        } catch {
            // A remote synced before by URL is known by the name it was kept under.
            if !argument.contains("/"), !argument.hasPrefix("."), let saved = RemoteLocations(name: argument).savedRemote(),
               saved.name == argument {
                return saved
            }
            let known = config.remotes.map(\.name)
            Console.error("bibread: '\(URLText.withoutCredentials(argument))' is neither a configured remote\(known.isEmpty ? "" : " (\(known.joined(separator: ", ")))") nor a URL or folder")
            throw ExitCode(64)
        }
    }

    /// Moves a password given in the remote's URL (or left in its settings by an earlier bibread)
    /// to the credentials file, which only the user may read, and says so: the remote's settings,
    /// which everyone may read, then hold the URL without it.
    static func keepPasswordPrivate(_ remote: inout Remote, locations: RemoteLocations) throws {
        let settingsHeldIt = locations.savedRemote()?.url == remote.url
        let store = CredentialStore()
        do {
            guard try remote.movePassword(to: store) else { return }
        } catch {
            Console.error("bibread: cannot keep the password of remote '\(remote.name)' in \(store.file.path): \(error)")
            throw ExitStatus.problems
        }
        if settingsHeldIt {
            // Now, not only when the sync gets that far.
            try? locations.saveRemote(remote)
            Console.error("bibread: the password of remote '\(remote.name)' was in \(locations.remoteFile.path), which everyone may read: it is now kept in \(store.file.path), which only you may read")
        } else {
            Console.error("bibread: the password in the URL is kept in \(store.file.path), which only you may read, not in the remote's settings")
        }
    }

    /// The name derived from a URL, or, when a configured remote or one synced from another URL
    /// has it already, the first of `NAME-2`, `NAME-3`, … that is free or kept for this URL: two
    /// folders named alike must not replace each other's library.
    static func freeName(for remote: Remote, configured: [Remote]) -> String {
        func isFree(_ name: String) -> Bool {
            // Settings hold a URL without its password.
            let url = URLText.withoutPassword(remote.url)
            if let other = configured.first(where: { $0.name == name }) { return URLText.withoutPassword(other.url) == url }
            let locations = RemoteLocations(name: name)
            if let saved = locations.savedRemote() { return URLText.withoutPassword(saved.url) == url }
            return !FileManager.default.fileExists(atPath: locations.library.path)
        }
        if isFree(remote.name) { return remote.name }
        for number in 2...999 where isFree("\(remote.name)-\(number)") { return "\(remote.name)-\(number)" }
        return remote.name
    }

    /// The .bib paths library arguments name: each itself, or a synced remote's .bib files.
    /// Their linked files are then found in a synced remote's cache, or, for a local library,
    /// through its `path_mapping` and by name (`LinkedFileLocator`).
    ///
    /// A remote known here (configured, or kept by an earlier sync) with no .bib on this machine
    /// yet is reported with the command that brings it and left out; when that leaves nothing of
    /// what was named, exits with status 2 rather than fall back to another library.
    static func libraryPaths(_ arguments: [String]) throws -> [String] {
        let config = Config.load(from: Directories().config)
        let remotes = config.remotes
        var unsynced = 0
        let paths = arguments.flatMap { argument -> [String] in
            if argument.contains("/") || argument.hasSuffix(".bib") { return [argument] }
            // A remote's name means the remote, even where a folder of that name is (a file of
            // that name, without .bib, is still the file).
            let files = RemoteLocations(name: argument).libraryFiles
            if !files.isEmpty, !isRegularFile(argument) { return files }
            if FileManager.default.fileExists(atPath: argument) { return [argument] }
            guard RemoteLocations.knownNames(configured: remotes).contains(argument) else { return [argument] }
            Console.error("bibread: remote '\(argument)' has no library on this machine yet; run 'bibread sync \(argument)'")
            unsynced += 1
            return []
        }
        if unsynced > 0 && paths.isEmpty { throw ExitStatus.unreadable }
        let absolute = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        RemoteLocations.registerAliases(forLibraries: absolute, remotes: remotes)
        config.registerLinkedFileSearch(forLibraries: absolute)
        return paths
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
