import BibModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// WebDAV (Nextcloud, ownCloud, Apache, lighttpd, nginx): a folder is listed with one
/// `PROPFIND` of depth 1, which gives every file's size, ETag and modification time.
public struct WebDAVTransport: URLRootTransport {
    public let root: String
    let session: CurlSession
    let credentials: TransferCredentials

    public init(url: String, session: CurlSession, credentials: TransferCredentials) {
        root = Self.folderURL(url)
        self.session = session
        self.credentials = credentials
    }

    static let propfindBody = Array("""
        <?xml version="1.0" encoding="utf-8"?>
        <d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getetag/><d:getlastmodified/></d:prop></d:propfind>
        """.utf8)

    public func list(_ folder: String) throws -> [RemoteFile] {
        let url = root + (folder.isEmpty ? "" : URLText.encodedPath(folder) + "/")
        var request = TransferRequest(url: url)
        request.method = "PROPFIND"
        request.headers = ["Depth: 1", "Content-Type: application/xml; charset=utf-8"]
        request.body = WebDAVTransport.propfindBody
        request.credentials = credentials
        let timer = PhaseTimer()
        let response = try session.perform(request)
        timer.lap("PROPFIND \(url): \(response.body.count) bytes")
        defer { timer.lap("read the listing of \(url)") }
        switch response.status {
        case 207: break
        case 401, 403: throw TransportError.unauthorized(url)
        case 404: throw TransportError.notFound(folder.isEmpty ? "/" : folder)
        default:
            throw TransportError.http(status: response.status, url: url, detail: "expected a WebDAV listing (207)",
                                      retryAfter: RetryAfter.seconds(response.headers["retry-after"]))
        }
        let rootPath = URLComponents(string: root)?.percentEncodedPath ?? "/"
        return try WebDAVListing.parse(response.body, rootPath: rootPath, folder: folder)
    }

}

/// Reads a WebDAV `multistatus` answer.
enum WebDAVListing {
    /// The files and folders a `multistatus` answer lists in `folder`, sorted by path.
    ///
    /// A one-pass scanner reads what servers usually send; anything it leaves to a full XML
    /// parser goes to Foundation's, and so does every answer when `fast` is false.
    static func parse(_ body: [UInt8], rootPath: String, folder: String, fast: Bool = true) throws -> [RemoteFile] {
        let responses: [MultistatusScanner.Response]
        switch fast ? MultistatusScanner(body).scan() : .needsFullParser {
        case .responses(let scanned): responses = scanned
        case .needsFullParser: responses = try parseWithFoundation(body)
        case .malformed(let why): throw RemoteError.badListing("the PROPFIND answer is not valid XML: \(why)")
        }
        let decodedRoot = rootPath.removingPercentEncoding ?? rootPath
        let listed = folder.isEmpty ? "" : folder + "/"
        var files: [RemoteFile] = []
        for response in responses {
            var href = response.href
            // Most servers send an absolute path; some a whole URL.
            if !href.hasPrefix("/"), let url = URLComponents(string: href), url.host != nil { href = url.percentEncodedPath }
            var path = href.utf8.contains(UInt8(ascii: "%")) ? href.removingPercentEncoding ?? href : href
            guard path.hasPrefix(decodedRoot) else { continue }
            path = String(path.dropFirst(decodedRoot.count))
            if path.hasSuffix("/") { path.removeLast() }
            // The folder itself is in its own listing.
            if path + "/" == listed || path == folder || path.isEmpty { continue }
            files.append(RemoteFile(path: path, size: response.size, version: response.etag ?? response.lastModified.map { "\($0)-\(response.size ?? -1)" },
                                    modified: response.lastModified, isFolder: response.isCollection))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// Every response of the answer, read by Foundation's XML parser.
    static func parseWithFoundation(_ body: [UInt8]) throws -> [MultistatusScanner.Response] {
        let delegate = MultistatusReader()
        let parser = XMLParser(data: Data(body))
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        guard parser.parse() else {
            // Where, not Foundation's dump of the error's domain and code.
            throw RemoteError.badListing("the PROPFIND answer is not valid XML (at line \(parser.lineNumber), column \(parser.columnNumber))")
        }
        return delegate.responses
    }

    final class MultistatusReader: NSObject, XMLParserDelegate {
        typealias Response = MultistatusScanner.Response

        var responses: [Response] = []
        private var current: Response?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            if name == "response" { current = Response() }
            if name == "collection" { current?.isCollection = true }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            text += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            // Trimmed by hand: Foundation's trimmingCharacters was most of a 1,000-file listing's cost.
            var value = Substring(text)
            while let first = value.utf8.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 { value = value.dropFirst() }
            while let last = value.utf8.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 { value = value.dropLast() }
            switch name {
            case "href": current?.href = String(value)
            case "getcontentlength": current?.size = Int64(value)
            case "getetag": current?.etag = String(value)
            case "getlastmodified": current?.lastModified = HTTPDate.parse(String(value))
            case "response":
                if let current { responses.append(current) }
                current = nil
            default: break
            }
            text = ""
        }
    }
}

/// HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`), read by hand: a listing of a thousand files
/// has a thousand of them.
enum HTTPDate {
    private static let months = ["Jan": 1, "Feb": 2, "Mar": 3, "Apr": 4, "May": 5, "Jun": 6,
                                 "Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov": 11, "Dec": 12]

    /// Seconds since 1970 of an HTTP date, or nil when it is not one.
    static func parse(_ text: String) -> Double? {
        // The fixed-length form every server sends (`Sun, 06 Nov 1994 08:49:37 GMT`) is read
        // in place; other spellings go the slow way.
        var text = text
        return text.withUTF8 { bytes -> Double? in
            guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
                  bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
                  bytes[26] == UInt8(ascii: "G"), bytes[27] == UInt8(ascii: "M"), bytes[28] == UInt8(ascii: "T"),
                  let day = number(bytes, 5, 2), let year = number(bytes, 12, 4), let hour = number(bytes, 17, 2),
                  let minute = number(bytes, 20, 2), let second = number(bytes, 23, 2),
                  let month = months[String(decoding: UnsafeBufferPointer(rebasing: bytes[8..<11]), as: UTF8.self)]
            else { return nil }
            return timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        } ?? parseLoosely(text)
    }

    /// Other spellings: a one-digit day, another zone name.
    private static func parseLoosely(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, let day = Int(parts[1]), let month = months[String(parts[2])], let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return timestamp(year: year, month: month, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    private static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double {
        var time = tm()
        time.tm_year = Int32(year - 1900)
        time.tm_mon = Int32(month - 1)
        time.tm_mday = Int32(day)
        time.tm_hour = Int32(hour)
        time.tm_min = Int32(minute)
        time.tm_sec = Int32(second)
        return Double(timegm(&time))
    }

    /// The decimal number of `count` digits at `start`.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
