import BibModel
import Foundation

/// Remote paths made safe to use under a local folder.
public enum RemotePath {
    /// The longest path and file name accepted (Linux's limits).
    public static let maximumLength = 4096
    public static let maximumComponentLength = 255

    /// Checks a path relative to the remote root: no `..`, no absolute path, no NUL, no empty or
    /// over-long names. Returns it normalised (`a/b.pdf`).
    public static func validated(_ path: String) throws -> String {
        // Bytes, not characters: a sync checks every planned path, and a grapheme-by-grapheme
        // split of each cost more than the rest of planning it.
        let bytes = path.utf8
        if bytes.contains(0) { throw RemoteError.unsafePath(path, reason: "it contains a NUL byte") }
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "\\") {
            throw RemoteError.unsafePath(path, reason: "it is absolute")
        }
        if bytes.count > maximumLength { throw RemoteError.unsafePath(path, reason: "it is longer than \(maximumLength) bytes") }
        let components = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        guard !components.isEmpty else { throw RemoteError.unsafePath(path, reason: "it is empty") }
        var kept = 0
        var keptBytes = 0
        for component in components {
            if component.elementsEqual("..".utf8) { throw RemoteError.unsafePath(path, reason: "it climbs out of the folder with '..'") }
            if component.count > maximumComponentLength {
                throw RemoteError.unsafePath(path, reason: "a name is longer than \(maximumComponentLength) bytes")
            }
            if !component.elementsEqual(".".utf8) {
                kept += 1
                keptBytes += component.count
            }
        }
        // Already normal (no empty or `.` names): the path itself.
        if kept == components.count && keptBytes + kept - 1 == bytes.count { return path }
        return components.filter { !$0.elementsEqual(".".utf8) }.map { String(Substring($0)) }.joined(separator: "/")
    }

    /// The local file for a validated remote path under `root`, refusing any symbolic link on
    /// the way (a link planted in the cache could point anywhere).
    public static func local(_ path: String, under root: URL) throws -> URL {
        URL(fileURLWithPath: try localPath(path, under: root.path), isDirectory: false)
    }

    /// ``local(_:under:)`` for a root given as a file system path, returning a path: what a
    /// sync uses for each of many files, without building URLs.
    public static func localPath(_ path: String, under rootPath: String) throws -> String {
        let safe = try validated(path)
        var local = rootPath
        for component in safe.split(separator: "/") {
            if !local.hasSuffix("/") { local += "/" }
            local += component
            var status = stat()
            if lstat(local, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK {
                throw RemoteError.unsafePath(path, reason: "\(local) is a symbolic link")
            }
        }
        return local
    }

    /// A path for messages: its first 200 characters, as one line cleaned of control characters
    /// (`TerminalText`).
    static func printable(_ path: String) -> String {
        TerminalText.cleanedLine(String(path.prefix(200)))
    }
}
