import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file or folder on a remote, as its listing describes it.
public struct RemoteFile: Sendable, Equatable {
    /// The path from the remote's root (`papers/knuth84.pdf`).
    public var path: String
    public var size: Int64?
    /// What changes when the content changes: an ETag, Dropbox's content hash, or size and
    /// modification time where nothing better exists.
    public var version: String?
    /// Modification time, seconds since 1970.
    public var modified: Double?
    public var isFolder: Bool

    public init(path: String, size: Int64?, version: String?, modified: Double?, isFolder: Bool = false) {
        self.path = path
        self.size = size
        self.version = version
        self.modified = modified
        self.isFolder = isFolder
    }
}

/// How bibread lists and fetches files of one kind of remote. Every transfer goes through
/// libcurl: a transport only builds the requests and reads the answers.
public protocol Transport: Sendable {
    /// The files and folders directly in `folder` ("" is the root), in one request where the
    /// protocol allows.
    func list(_ folder: String) throws -> [RemoteFile]
    /// The request that downloads the file at `path`, resuming at `offset`.
    func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest
    /// Whether a finished download has the content hash the remote gives for the file
    /// (Dropbox's `content_hash`); nil when it has, or when the remote gives none, else what is
    /// wrong. (The sync checks every download's size itself.)
    func verify(_ file: URL, against remote: RemoteFile) -> String?
}

extension Transport {
    /// Remotes without content hashes: nothing beyond the size to check.
    public func verify(_ file: URL, against remote: RemoteFile) -> String? { nil }
}

/// A transport whose files are URLs under a root (WebDAV, SFTP, plain HTTP).
protocol URLRootTransport: Transport {
    var root: String { get }
    var credentials: TransferCredentials { get }
}

extension URLRootTransport {
    /// A folder URL always ends in `/` (libcurl lists an sftp folder only then).
    static func folderURL(_ url: String) -> String { url.hasSuffix("/") ? url : url + "/" }

    /// The URL of a validated remote path.
    func url(of path: String) throws -> String {
        root + URLText.encodedPath(try RemotePath.validated(path))
    }

    public func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest {
        var request = TransferRequest(url: try url(of: path))
        request.credentials = credentials
        request.resumeFrom = offset
        return request
    }
}

/// Failures of a remote's protocol (beyond the transfer itself).
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered `status`; `retryAfter` is the wait its `Retry-After` header asked for,
    /// in seconds, if it sent one.
    case http(status: Int, url: String, detail: String, retryAfter: Double? = nil)
    case listingUnsupported(String)
    case notFound(String)
    case unauthorized(String)

    public var description: String {
        switch self {
        case .http(let status, let url, let detail, let retryAfter):
            // The detail is the server's (Dropbox's error_summary): cleaned of control characters.
            let wait = retryAfter.map { "; it asks to be asked again in \(RetryAfter.describe($0))" } ?? ""
            return "\(URLText.withoutCredentials(url)) answered \(status)\(detail.isEmpty ? "" : ": \(TerminalText.cleanedLine(detail))")\(wait)"
        case .listingUnsupported(let kind):
            return "\(kind) remotes cannot list folders; the .bib names the files to fetch"
        case .notFound(let path):
            return "\(path) is not on the remote"
        case .unauthorized(let url):
            return "\(URLText.withoutCredentials(url)) refused the credentials (check config.toml, ~/.netrc or the environment)"
        }
    }

    /// Worth trying again later (the server is busy or broken, not the request).
    public var isTransient: Bool {
        if case .http(let status, _, _, _) = self { return status == 429 || status >= 500 }
        return false
    }

    /// The wait, in seconds, the server asked for before the next request (`Retry-After`).
    public var retryAfter: Double? {
        if case .http(_, _, _, let retryAfter) = self { return retryAfter }
        return nil
    }
}

/// URL text for messages.
public enum URLText {
    /// The URL with any `user:password@` removed, so messages never show credentials.
    public static func withoutCredentials(_ url: String) -> String {
        guard let (start, end) = userinfoRange(url) else { return url }
        return String(url[..<start]) + String(url[url.index(after: end)...])
    }

    /// The URL with the password of its `user:password@` removed (the user name stays): what
    /// may be written where others can read it.
    public static func withoutPassword(_ url: String) -> String {
        guard let (start, end) = userinfoRange(url), let colon = url[start..<end].firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[end...])
    }

    /// The user name and password of the URL's `user:password@` (percent-decoded); nil when it
    /// has no password.
    static func login(in url: String) -> CredentialStore.Login? {
        guard let (start, end) = userinfoRange(url), let colon = url[start..<end].firstIndex(of: ":") else { return nil }
        let user = String(url[start..<colon])
        let password = String(url[url.index(after: colon)..<end])
        guard !password.isEmpty else { return nil }
        return CredentialStore.Login(user: user.removingPercentEncoding ?? user, password: password.removingPercentEncoding ?? password)
    }

    /// Where the `user:password` before the host is (without its `@`), if the URL has one.
    private static func userinfoRange(_ url: String) -> (String.Index, String.Index)? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return (schemeEnd.upperBound, at)
    }

    /// Percent-encodes each component of a relative path for a URL: every UTF-8 byte outside
    /// RFC 3986's path characters (`A-Z a-z 0-9 - . _ ~ ! $ & ' ( ) * + , = : @`) is written
    /// `%XX`; `/` separates the components and stays. (The same as Foundation's
    /// `addingPercentEncoding` with `urlPathAllowed` less `/?#;`, per component.)
    public static func encodedPath(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 != UInt8(ascii: "/") && !isPathByte($0) }) else { return path }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(path.utf8.count + 16)
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") || isPathByte(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether `byte` stands for itself in a path component.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"),
             UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
             UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
