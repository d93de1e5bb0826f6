import BibModel
import Foundation

/// Where a remote's credentials come from. They are never printed or logged.
public enum CredentialSource: Sendable, Equatable, Codable {
    /// Whatever the URL and `~/.netrc` give (the default).
    case netrc
    /// A user name and a password read from environment variables.
    case environment(user: String, password: String)
    /// A bearer token (Dropbox) read from an environment variable.
    case tokenEnvironment(String)
    /// A bearer token printed by a command (`pass show dropbox`), run when needed.
    case tokenCommand(String)
    /// An SSH key file (for sftp); without one, ssh-agent.
    case sshKey(privateKey: String, publicKey: String?)
    /// The user and password ``CredentialStore`` keeps for the remote's name: those of a URL
    /// given as `user:password@`, moved out of it.
    case stored
}

/// A place a library lives: named in config.toml (`[[remote]]`) or given as a URL.
public struct Remote: Sendable, Equatable, Codable {
    /// How bibread talks to it.
    public enum Kind: String, Sendable, Equatable, Codable {
        case folder, webdav, sftp, dropbox, http
    }

    /// The name used on the command line and for its folders (`lab`); made from the URL when none is given.
    public var name: String
    public var kind: Kind
    /// The root: `file:///…`, `https://…/remote.php/dav/files/me/`, `sftp://me@host:22/home/me/papers`,
    /// `dropbox:/Papers` (a path in the Dropbox), or a plain HTTP folder.
    public var url: String
    /// The .bib files to sync, relative to the root (default: every `.bib` in it).
    public var libraries: [String]
    public var credentials: CredentialSource
    /// Absolute paths written in the .bib (JabRef, Zotero) and the remote folders they are in:
    /// `"/Users/me/Dropbox/Papers" = "Papers"`.
    public var pathMapping: [String: String]
    /// Dropbox's API base (configurable so that tests can use a local stand-in).
    public var apiBase: String
    /// `known_hosts` for sftp (default `~/.ssh/known_hosts`).
    public var knownHosts: String?

    public init(name: String, kind: Kind, url: String, libraries: [String] = [], credentials: CredentialSource = .netrc,
                pathMapping: [String: String] = [:], apiBase: String = "https://api.dropboxapi.com", knownHosts: String? = nil) {
        self.name = name
        self.kind = kind
        self.url = url
        self.libraries = libraries
        self.credentials = credentials
        self.pathMapping = pathMapping
        self.apiBase = apiBase
        self.knownHosts = knownHosts
    }

    /// A remote for a URL or folder given on the command line: the kind from the scheme
    /// (`http(s)` is WebDAV unless `kind` says `http`), the name from the last path component.
    public init(url text: String, kind: Kind? = nil) throws {
        var url = text
        let detected: Kind
        if text.hasPrefix("/") || text.hasPrefix("~") || text.hasPrefix(".") {
            let expanded = (text as NSString).expandingTildeInPath
            url = URL(fileURLWithPath: expanded).standardizedFileURL.absoluteString
            detected = .folder
        } else if text.hasPrefix("file://") {
            detected = .folder
        } else if text.hasPrefix("http://") || text.hasPrefix("https://") {
            detected = .webdav
        } else if text.hasPrefix("sftp://") {
            detected = .sftp
        } else if text.hasPrefix("dropbox:") {
            detected = .dropbox
        } else {
            throw RemoteError.unsupportedURL(text)
        }
        if !url.hasSuffix("/") && detected != .dropbox { url += "/" }
        // The name: the last folder of the path, else the host, as a plain folder name.
        let components = URLComponents(string: url)
        let name = RemoteName.derived(path: components?.percentEncodedPath ?? url, host: components?.host)
        self.init(name: name, kind: kind ?? detected, url: url)
    }
}

/// Problems with a remote's definition or its answers.
public enum RemoteError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedURL(String)
    case unsafePath(String, reason: String)
    case badListing(String)
    case missingCredentials(String)
    case fetchFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .unsupportedURL(let url):
            return "'\(URLText.withoutCredentials(url))' is not a remote bibread can use (a folder, file://, http(s):// WebDAV, sftp:// or dropbox:/path)"
        case .unsafePath(let path, let reason):
            return "refusing the remote path '\(RemotePath.printable(path))': \(reason)"
        case .badListing(let detail):
            return "cannot read the remote's listing: \(detail)"
        case .missingCredentials(let detail):
            return "missing credentials: \(detail)"
        case .fetchFailed(let path, let reason):
            return "cannot download \(path): \(reason)"
        }
    }
}

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
