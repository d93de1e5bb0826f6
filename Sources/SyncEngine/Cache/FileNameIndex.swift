import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The regular files under one folder, by file name: made by one walk of the folder, so that
/// looking up thousands of missing linked files costs one read of each directory, not one walk
/// per file.
///
/// The walk is bounded: it reads at most `depthLimit` levels below the folder and stops after
/// `entryLimit` entries (then `isComplete` is false). It skips hidden entries (`.git`, `.Trash`),
/// never enters a symbolic link to a folder (no cycles, nothing outside the tree), and takes a
/// symbolic link to a file only when the file it names is inside the folder.
struct FileNameIndex: Sendable {
    /// How many levels below the folder are read by default.
    static let defaultDepthLimit = 8
    /// How many entries (files and folders) are looked at by default before the walk stops.
    static let defaultEntryLimit = 50_000

    /// The folder, as it was given.
    let root: String
    /// How many directories the walk read (opened and listed).
    private(set) var directoriesRead = 0
    /// False when a limit stopped the walk before it had seen every entry.
    private(set) var isComplete = true
    private var byName: [String: [String]] = [:]
    /// The same files by their name in lower case.
    private var byFoldedName: [String: [String]] = [:]

    /// Walks `root` once (a missing or unreadable folder gives an empty index).
    init(root: String, depthLimit: Int = defaultDepthLimit, entryLimit: Int = defaultEntryLimit) {
        self.root = root
        guard let realRoot = Self.realPath(root) else { return }
        var queue: [(path: String, depth: Int)] = [(root, 0)]
        var next = 0
        var seen = 0
        walk: while next < queue.count {
            let (folder, depth) = queue[next]
            next += 1
            guard let directory = opendir(folder) else { continue }
            defer { closedir(directory) }
            directoriesRead += 1
            while let entry = readdir(directory) {
                guard let name = Self.name(of: entry), !name.hasPrefix(".") else { continue }
                seen += 1
                if seen > entryLimit {
                    isComplete = false
                    break walk
                }
                let path = folder == "/" ? "/" + name : folder + "/" + name
                switch Self.kind(of: entry, at: path) {
                case .folder:
                    if depth < depthLimit { queue.append((path, depth + 1)) } else { isComplete = false }
                case .file:
                    add(path, named: name)
                case .link:
                    if let target = Self.realPath(path), target.hasPrefix(realRoot == "/" ? "/" : realRoot + "/"),
                       Self.isRegularFile(target) {
                        add(path, named: name)
                    }
                case .other:
                    break
                }
            }
        }
    }

    /// The files named `name` (exactly; names equal as Unicode text, so a name written
    /// decomposed on a Mac matches the same name composed here).
    func files(named name: String) -> [String] {
        byName[name] ?? []
    }

    /// The files whose name is `name` in another case, as a Mac's disk (which ignores case)
    /// would open them: `Knuth84.PDF` for `knuth84.pdf`.
    func files(namedIgnoringCase name: String) -> [String] {
        byFoldedName[name.lowercased()] ?? []
    }

    private mutating func add(_ path: String, named name: String) {
        byName[name, default: []].append(path)
        byFoldedName[name.lowercased(), default: []].append(path)
    }

    private enum Kind { case folder, file, link, other }

    private static func kind(of entry: UnsafeMutablePointer<dirent>, at path: String) -> Kind {
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_LNK): return .link
        case Int32(DT_UNKNOWN):
            // Some file systems do not say; lstat does, without following a link.
            var status = stat()
            guard lstat(path, &status) == 0 else { return .other }
            switch status.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            case S_IFLNK: return .link
            default: return .other
            }
        default: return .other
        }
    }

    /// The entry's name, when it is UTF-8 (a name that is not cannot be one a library links).
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        withUnsafePointer(to: &entry.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                String(validatingCString: $0)
            }
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
