import BibModel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
