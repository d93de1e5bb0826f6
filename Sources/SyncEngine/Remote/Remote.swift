import BibModel
import Foundation

/// A place a library lives: named in config.toml (`[[remote]]`) or given as a URL.
public struct Remote: Sendable, Equatable, Codable {
    /// How bibread talks to it.
    public enum Kind: String, Sendable, Equatable, Codable {
        case folder, webdav, sftp, dropbox, http
        /// A remote of the user's own rclone configuration (`rclone:REMOTE:path`): every backend rclone has.
        case rclone
    }

    /// The name used on the command line and for its folders (`lab`); made from the URL when none is given.
    public var name: String
    public var kind: Kind
    /// The root: `file:///…`, `https://…/remote.php/dav/files/me/`, `sftp://me@host:22/home/me/papers`,
    /// `dropbox:/Papers` (a path in the Dropbox), `rclone:gdrive:Papers` (a remote of rclone's
    /// configuration and a path in it), or a plain HTTP folder.
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
        } else if text.hasPrefix(RcloneLocation.scheme) {
            // rclone's own syntax, `REMOTE:path`: no URL, so no "/" added and the name made here.
            let location = try RcloneLocation(url: text)
            self.init(name: location.derivedName, kind: kind ?? .rclone, url: text)
            return
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
