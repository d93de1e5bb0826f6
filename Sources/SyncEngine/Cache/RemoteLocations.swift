import BibModel
import DiskIO
import Foundation

/// Where a synced remote lives on this machine (XDG base directories):
/// - its .bib files: `$XDG_DATA_HOME/bibread/remotes/NAME/` (kept: they are the library);
/// - its PDFs: `$XDG_CACHE_HOME/bibread/NAME/` (purgeable), with `.part` files while downloading;
/// - .bib files refused after download: `…/remotes/NAME/.rejected/`, for inspection;
/// - the copies of .bib files that syncs replaced: `…/remotes/NAME/.previous/`, to go back to;
/// - the last synced copy of each .bib, with its version: `…/remotes/NAME/.base/`, the base of a
///   three-way merge (``BaseCopies``).
public struct RemoteLocations: Sendable, Equatable {
    public let name: String
    public let library: URL
    public let cache: URL
    /// bibread's state folder (`$XDG_STATE_HOME/bibread`), where the write locks of library
    /// files are (``LibraryWriteLock``): a push takes the lock of the copy it replaces.
    public let state: URL

    public init(name: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.name = name
        state = BaseDirectories(environment: environment).state
        library = Self.librariesRoot(environment: environment).appendingPathComponent(name)
        cache = Self.cachesRoot(environment: environment).appendingPathComponent(name)
    }

    /// The folder that holds every remote's library folder: `$XDG_DATA_HOME/bibread/remotes/`.
    public static func librariesRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        BaseDirectories(environment: environment).data.appendingPathComponent("remotes")
    }

    /// The folder that holds every remote's PDF cache: `$XDG_CACHE_HOME/bibread/`.
    public static func cachesRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        BaseDirectories(environment: environment).cache
    }

    /// The remote's definition, saved by each sync (no secrets: only where to find them, such as
    /// ``CredentialStore``), so that a reader opened later can fetch a missing PDF from it.
    public var remoteFile: URL { library.appendingPathComponent(".bibread-remote.json") }

    /// The remote this library was last synced from.
    public func savedRemote() -> Remote? {
        guard let data = try? Data(contentsOf: remoteFile) else { return nil }
        return try? JSONDecoder().decode(Remote.self, from: data)
    }

    /// Writes `remote` as the remote this library is synced from, unless the file says the same
    /// already (a no-op sync writes nothing). Never with a password: one left in the URL (a
    /// config.toml remote's) is removed, for the file is readable by everyone.
    public func saveRemote(_ remote: Remote) throws {
        var saved = remote
        saved.url = URLText.withoutPassword(saved.url)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(saved)
        guard (try? Data(contentsOf: remoteFile)) != data else { return }
        try AtomicFile.write(data, to: remoteFile)
    }

    /// Where refused .bib downloads are kept.
    public var rejected: URL { library.appendingPathComponent(".rejected") }

    /// Where the copies of .bib files that syncs replaced are kept (a few per file).
    public var previousCopies: URL { library.appendingPathComponent(".previous") }

    /// The last synced copies of the remote's .bib files, with their versions.
    public var baseCopies: BaseCopies { BaseCopies(folder: library.appendingPathComponent(".base")) }

    /// The last synced copy of the remote's `remotePath` (a .bib), with the version the remote
    /// gave it: what this machine last downloaded or uploaded; nil when there is none yet.
    public func baseCopy(of remotePath: String) -> VersionedContents? {
        baseCopies.copy(of: remotePath)
    }

    /// The cache's own database.
    public var manifest: URL { cache.appendingPathComponent(".bibread-cache.sqlite") }

    /// The synced .bib files on this machine, without the conflicted copies a sync client left
    /// beside one of them (`library (Bob's conflicted copy …).bib`): a copy holds the library's
    /// references a second time, so loaded with it every key would be doubled and an edit could
    /// land in the copy. `bibread check` names the copies and `merge-conflicted` folds them in.
    public var libraryFiles: [String] {
        guard let enumerator = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil,
                                                              options: [.skipsHiddenFiles]) else { return [] }
        let files = enumerator.compactMap { ($0 as? URL).flatMap { $0.pathExtension == "bib" ? $0.path : nil } }.sorted()
        return files.filter { path in
            let url = URL(fileURLWithPath: path)
            let folder = url.deletingLastPathComponent().path
            return !files.contains { other in
                other != path && URL(fileURLWithPath: other).deletingLastPathComponent().path == folder
                    && ConflictedCopy.client(ofCopyNamed: url.lastPathComponent, of: URL(fileURLWithPath: other).lastPathComponent) != nil
            }
        }
    }

    /// The remote path (relative to the remote's root) of a linked file of the synced library:
    /// paths under the library folder map as they are; absolute paths through `mapping`.
    public func remotePath(ofLinked path: String, mapping: [String: String]) -> String? {
        let root = library.path + "/"
        if path.hasPrefix(root) { return String(path.dropFirst(root.count)) }
        let normalised = path.replacingOccurrences(of: "\\", with: "/")
        for (prefix, target) in mapping.sorted(by: { $0.key.count > $1.key.count }) {
            let key = prefix.replacingOccurrences(of: "\\", with: "/")
            let withSlash = key.hasSuffix("/") ? key : key + "/"
            if normalised.hasPrefix(withSlash) {
                let rest = String(normalised.dropFirst(withSlash.count))
                let base = target.hasSuffix("/") || target.isEmpty ? target : target + "/"
                return base + rest
            }
        }
        return nil
    }

    /// Where the cache keeps (or will keep) the file at a remote path.
    public func cachedFile(_ remotePath: String) throws -> URL {
        try RemotePath.local(remotePath, under: cache)
    }

    /// The local file to open for a linked file of a synced library: the cached copy when
    /// there is one, else nil.
    public func cachedCopy(ofLinked path: String, mapping: [String: String]) -> String? {
        guard let remote = remotePath(ofLinked: path, mapping: mapping), let url = try? cachedFile(remote),
              FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url.path
    }
}

extension RemoteLocations {
    /// The names of the remotes `remotes` configures and of those this machine holds a library
    /// folder or a cache for (a sync makes both, even one that failed, so that the next one can
    /// be started by name). Only folders count: the caches' folder also holds files that are
    /// not remotes (the full-text index, `fulltext.sqlite` and its `-wal` and `-shm`).
    public static func knownNames(configured remotes: [Remote],
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> Set<String> {
        var names = Set(remotes.map(\.name))
        for root in [librariesRoot(environment: environment), cachesRoot(environment: environment)] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where !name.hasPrefix(".") {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root.appendingPathComponent(name).path, isDirectory: &isFolder),
                      isFolder.boolValue else { continue }
                names.insert(name)
            }
        }
        return names
    }

    /// The remote whose library folder holds the file at `path`, and the file's path on that
    /// remote (relative to its root); nil for a file outside every synced library folder.
    public static func owningFile(_ path: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) -> (locations: RemoteLocations, file: String)? {
        guard let locations = owning(URL(fileURLWithPath: path).standardizedFileURL.path, environment: environment),
              let file = locations.remotePath(ofLocal: path) else { return nil }
        return (locations, file)
    }

    /// The path on the remote of the file at `path` here, when it is in this library folder.
    public func remotePath(ofLocal path: String) -> String? {
        let root = library.standardizedFileURL.path + "/"
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return absolute.hasPrefix(root) ? String(absolute.dropFirst(root.count)) : nil
    }

    /// The synced remote whose library folder holds `path`, if any.
    public static func owning(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> RemoteLocations? {
        let root = librariesRoot(environment: environment).path + "/"
        guard path.hasPrefix(root) else { return nil }
        guard let name = path.dropFirst(root.count).split(separator: "/").first else { return nil }
        return RemoteLocations(name: String(name), environment: environment)
    }

    /// Makes the linked files of synced libraries among `paths` found in their caches: the
    /// library folder, and every absolute folder of the remote's path mapping. The files a
    /// sync looked for and the remote did not have (the cache manifest keeps them) are noted
    /// as absent, so that they do not count as "on the remote only".
    public static func registerAliases(forLibraries paths: [String], remotes: [Remote]) {
        for locations in Set(paths.compactMap { owning($0) }.map(\.name)).map({ RemoteLocations(name: $0) }) {
            LinkedFileLocator.shared.register(folder: locations.library.path, as: locations.cache.path)
            let mapping = remotes.first { $0.name == locations.name }?.pathMapping ?? [:]
            for (prefix, target) in mapping {
                LinkedFileLocator.shared.register(folder: prefix, as: locations.cache.appendingPathComponent(target).path)
            }
            locations.registerAbsentFiles()
        }
    }

    /// Notes the files a sync looked for and the remote did not have (the cache manifest keeps
    /// them) as absent in `LinkedFileLocator`, in place of those noted before; none when there
    /// is no cache manifest yet (it is not created here).
    public func registerAbsentFiles() {
        var absent: [String] = []
        if FileManager.default.fileExists(atPath: manifest.path), let paths = try? CacheManifest(url: manifest).absentPaths() {
            absent = paths.compactMap { try? cachedFile($0).path }
        }
        LinkedFileLocator.shared.setAbsent(absent, under: cache.path)
    }
}
