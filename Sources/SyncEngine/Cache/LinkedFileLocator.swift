import BibModel
import Foundation

/// Where linked files are on this machine: at their own path, or, for a synced remote's library,
/// in its PDF cache (the library folder, and the absolute folders of the remote's path mapping,
/// map to the cache). The files a sync looked for and the remote did not have are noted as
/// absent, so that they do not count as "on the remote only".
///
/// A local library's linked files (a library written on another machine links
/// `/Users/jane/Papers/…`) are looked for through its `path_mapping` (``registerLocalLibrary``),
/// and, when still missing, by their file name under the library's folder and the mapped
/// folders: one bounded walk of each folder per run (``FileNameIndex``), kept for every file
/// after it; a name no file has exactly is looked for in any case (a Mac's disk ignores case).
/// A name found once is a guess the caller reports (``lookup(_:)``); a name found twice is not
/// guessed.
///
/// This is the one place that looks at the disk for linked files; the model and the reader's core
/// get its answers as values.
public final class LinkedFileLocator: LinkedFileLocating, @unchecked Sendable {
    /// The process's locator; `RemoteLocations.registerAliases` tells it about synced libraries.
    public static let shared = LinkedFileLocator()

    private let lock = NSLock()
    private var folders: [(from: String, to: String)] = []
    private var absent: Set<String> = []
    /// Local libraries' path mappings, longest first.
    private var mappings: [(from: String, to: String)] = []
    /// The folders a missing file's name is looked for under, in the order registered.
    private var searchFolders: [String] = []
    /// One index per folder, made at the first missing file; under its own lock, so that a
    /// walk does not hold up the other questions.
    private let searchLock = NSLock()
    private var indexes: [String: FileNameIndex] = [:]
    private var walked = 0

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
        let normalised = Self.forwardSlashes(path)
        return lock.withLock {
            folders.first { normalised.hasPrefix($0.from) }.map { $0.to + normalised.dropFirst($0.from.count) }
        }
    }

    /// A local library in `library` (its folder): each key of `pathMapping` is a folder of the
    /// machine that wrote the links (`/Users/jane/Papers`, or `C:\Papers`: a backslash reads as
    /// `/`), and its value the same folder here (absolute). A file missing at its path and at its
    /// mapped path is looked for by name under `library` and under the mapped folders.
    public func registerLocalLibrary(folder library: String, pathMapping: [String: String] = [:]) {
        let normalised = pathMapping.map { (from: Self.withSlash(Self.forwardSlashes($0.key)), to: Self.withSlash($0.value)) }
        let folders = [library] + pathMapping.values.sorted()
        lock.withLock {
            for mapping in normalised {
                mappings.removeAll { $0.from == mapping.from }
                mappings.append(mapping)
            }
            mappings.sort { $0.from.count > $1.from.count }
            for folder in folders.map(Self.standardised) where !searchFolders.contains(folder) {
                searchFolders.append(folder)
            }
        }
    }

    /// Forgets the folders' contents read so far: the next missing file reads them again.
    public func forgetFolderContents() {
        searchLock.withLock { indexes = [:] }
    }

    /// How many directories the searches by name have read in this run: each folder's walk
    /// counts once however many files were looked up, until `forgetFolderContents`.
    public var directoriesRead: Int {
        searchLock.withLock { walked }
    }

    public func location(of file: LinkedFile) -> FileLocation {
        lookup(file).location
    }

    /// Where `file` is, and how it was found: at its path, in a synced library's cache, through a
    /// local library's path mapping, or by its name (one file of that name: a guess; several:
    /// none guessed).
    public func lookup(_ file: LinkedFile) -> LinkedFileLookup {
        if LinkedFileLocator.isRegularFile(file.path) { return .located(.local(file.path)) }
        if let alias = alias(of: file.path) {
            if LinkedFileLocator.isRegularFile(alias) { return .located(.cached(alias)) }
            return .located(lock.withLock { absent.contains(alias) } ? .missing : .remoteOnly)
        }
        if let mapped = mappedPath(of: file.path), LinkedFileLocator.isRegularFile(mapped) { return .located(.local(mapped)) }
        return search(forNameOf: file.path)
    }

    /// `path` through the local libraries' path mappings, if one applies.
    public func mappedPath(of path: String) -> String? {
        let normalised = Self.forwardSlashes(path)
        return lock.withLock {
            mappings.first { normalised.hasPrefix($0.from) }.map { $0.to + normalised.dropFirst($0.from.count) }
        }
    }

    private func search(forNameOf path: String) -> LinkedFileLookup {
        let name = (Self.forwardSlashes(path) as NSString).lastPathComponent
        let folders = lock.withLock { searchFolders }
        guard !name.isEmpty, name != "/" else { return .notFound(searched: folders, isComplete: true) }
        var found: [String] = []
        var foundIgnoringCase: [String] = []
        var isComplete = true
        searchLock.withLock {
            for folder in folders {
                let index = indexes[folder] ?? FileNameIndex(root: folder)
                if indexes[folder] == nil {
                    indexes[folder] = index
                    walked += index.directoriesRead
                }
                isComplete = isComplete && index.isComplete
                for candidate in index.files(named: name) where !found.contains(candidate) { found.append(candidate) }
                for candidate in index.files(namedIgnoringCase: name) where !foundIgnoringCase.contains(candidate) {
                    foundIgnoringCase.append(candidate)
                }
            }
        }
        // A library written on a Mac, whose disk ignores case, may name a file in another case.
        if found.isEmpty { found = foundIgnoringCase }
        switch found.count {
        case 0: return .notFound(searched: folders, isComplete: isComplete)
        case 1: return .sameName(found[0])
        default: return .ambiguous(found.sorted())
        }
    }

    public func isSyncedCopy(_ path: String) -> Bool {
        alias(of: path) != nil
    }

    /// Where `file` is on this machine (its path, or its synced copy); nil when it is not here.
    public func localPath(of file: LinkedFile) -> String? {
        location(of: file).path
    }

    private static func forwardSlashes(_ path: String) -> String {
        path.utf8.contains(UInt8(ascii: "\\")) ? path.replacingOccurrences(of: "\\", with: "/") : path
    }

    private static func withSlash(_ folder: String) -> String {
        folder.hasSuffix("/") ? folder : folder + "/"
    }

    private static func standardised(_ folder: String) -> String {
        URL(fileURLWithPath: folder).standardizedFileURL.path
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }
}
