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
    case http(status: Int, url: String, detail: String)
    case listingUnsupported(String)
    case notFound(String)
    case unauthorized(String)

    public var description: String {
        switch self {
        case .http(let status, let url, let detail):
            return "\(URLText.withoutCredentials(url)) answered \(status)\(detail.isEmpty ? "" : ": \(detail)")"
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
        if case .http(let status, _, _) = self { return status == 429 || status >= 500 }
        return false
    }
}

/// URL text for messages.
public enum URLText {
    /// The URL with any `user:password@` removed, so messages never show credentials.
    public static func withoutCredentials(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + String(rest[rest.index(after: at)...])
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
