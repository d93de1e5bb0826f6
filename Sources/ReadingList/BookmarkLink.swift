import Foundation
import PropertyList

/// `bibread://` links that carry a reading list.
///
/// - `bibread://bookmarks?DATA`: DATA is base64 of a 4-byte little-endian unsigned length,
///   then a zlib stream (level 9, with its header) of the list as a binary plist of exactly
///   that length. XML plists inside are accepted too (other tools may write them); JSON is not.
/// - `bibread://downloadbookmarks?URL`: an http(s) URL to fetch the list from.
///
/// Parsing is safe on hostile links: the text, the declared length and the inflated output
/// are capped before any work, and the inflated list is decoded with the same limits as a file.
public enum BookmarkLink {
    /// The largest uncompressed length a link may declare (16 MB).
    public static let maxDeclaredLength = 16 << 20

    /// The longest download URL accepted, in bytes.
    static let maxDownloadURLLength = 8 << 10

    /// The most characters of data a link may carry: room for the base64 of a compressed
    /// `maxDeclaredLength`, with percent-encoding and line breaks.
    static let maxDataLength = 2 * maxDeclaredLength

    /// What a link carries.
    public enum Content: Sendable, Equatable {
        /// A reading list carried in the link itself.
        case list(DecodedReadingList)
        /// A reading list to download from an http(s) URL.
        case download(url: String)
    }

    /// The two kinds of link, by their host.
    private enum Kind {
        case bookmarks
        case download
    }

    /// Whether `text` is a `bibread://bookmarks?…` or `bibread://downloadbookmarks?…` link
    /// (scheme and host in any case, white space around allowed).
    public static func isLink(_ text: String) -> Bool {
        split(text) != nil
    }

    /// What the link in `text` carries: a list (inflated and decoded within `limits`) or a URL.
    ///
    /// Throws `ReadingListError`: `.badLink` for the link itself (not a link, bad base64, a
    /// wrong or oversized declared length, bad compressed data, a bad URL), or the errors of
    /// `ReadingListCoder.decode` for the list inside.
    public static func parse(_ text: String, limits: ReadingListLimits = ReadingListLimits()) throws -> Content {
        guard let (kind, payload) = split(text) else {
            throw ReadingListError.badLink("not a bibread://bookmarks or bibread://downloadbookmarks link")
        }
        switch kind {
        case .bookmarks: return .list(try parseList(payload, limits: limits))
        case .download: return .download(url: try parseDownloadURL(payload))
        }
    }

    /// The `bibread://bookmarks?` link for `list`: its binary plist, deflated at level 9 behind
    /// its length, in padded standard base64 with `+`, `/` and `=` percent-encoded.
    public static func make(_ list: ReadingList) -> String {
        let plist = ReadingListCoder.encode(list, as: .binary)
        let length = UInt32(truncatingIfNeeded: plist.count)
        let header = (0..<4).map { UInt8(truncatingIfNeeded: length >> UInt32(8 * $0)) }
        return "bibread://bookmarks?" + LinkBase64.encodeForLink(header + Zlib.compress(plist))
    }

    /// The `bibread://downloadbookmarks?` link for `url`, percent-encoded so that the URL's own
    /// `?`, `&`, `=`, `#` and `%` survive as one query.
    public static func makeDownloadLink(url: String) -> String {
        var unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(0x80)))
        unreserved.insert(charactersIn: "-._~")
        let encoded = url.addingPercentEncoding(withAllowedCharacters: unreserved) ?? url
        return "bibread://downloadbookmarks?" + encoded
    }

    // MARK: - Parsing

    /// The link's kind and the text after its `?`; nil when `text` is not such a link.
    private static func split(_ text: String) -> (Kind, Substring)? {
        // Trimmed by hand: Foundation's trimming copies the whole (possibly huge) text.
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, scalars[start].properties.isWhitespace { start = scalars.index(after: start) }
        while end > start, scalars[scalars.index(before: end)].properties.isWhitespace { end = scalars.index(before: end) }
        let trimmed = Substring(scalars[start..<end])
        let scheme = "bibread://"
        guard trimmed.utf8.count > scheme.utf8.count,
              trimmed.prefix(scheme.count).lowercased() == scheme else { return nil }
        let rest = trimmed.dropFirst(scheme.count)
        guard let question = rest.firstIndex(of: "?") else { return nil }
        var host = rest[..<question].lowercased()
        if host.hasSuffix("/") { host.removeLast() }
        let payload = rest[rest.index(after: question)...]
        switch host {
        case "bookmarks": return (.bookmarks, payload)
        case "downloadbookmarks": return (.download, payload)
        default: return nil
        }
    }

    private static func parseList(_ payload: Substring, limits: ReadingListLimits) throws -> DecodedReadingList {
        guard !payload.isEmpty else { throw ReadingListError.badLink("the link carries no data") }
        guard payload.utf8.count <= maxDataLength else {
            throw ReadingListError.badLink("the link's data is \(payload.utf8.count) characters, more than the limit of \(maxDataLength)")
        }
        // The declared length first, so that an oversized one is refused before decoding the rest.
        let header = try LinkBase64.decodeFromLink(payload, prefix: 4)
        guard header.count >= 4 else {
            throw ReadingListError.badLink("the link's data is too short (\(header.count) bytes) for a length and compressed data")
        }
        let declared = (0..<4).reduce(0) { $0 | Int(header[$1]) << (8 * $1) }
        guard declared > 0 else { throw ReadingListError.badLink("the link declares a length of 0 bytes") }
        guard declared <= maxDeclaredLength else {
            throw ReadingListError.badLink("the link declares \(declared) bytes, more than the limit of \(maxDeclaredLength)")
        }
        guard declared <= limits.maxBytes else {
            throw ReadingListError.limitExceeded("the link declares \(declared) bytes, more than the limit of \(limits.maxBytes)")
        }
        let bytes = try LinkBase64.decodeFromLink(payload)
        guard bytes.count > 4 else {
            throw ReadingListError.badLink("the link's data is too short (\(bytes.count) bytes) for a length and compressed data")
        }
        let plist = try Zlib.inflate(Array(bytes[4...]), expectedLength: declared)
        switch ReadingListCoder.detectFormat(plist) {
        case .binary?, .xml?:
            return try ReadingListCoder.decode(plist, limits: limits)
        case .json?:
            throw ReadingListError.badLink("the link's data is JSON, not a property list")
        case nil:
            throw ReadingListError.badLink("the link's data is not a property list")
        }
    }

    private static func parseDownloadURL(_ payload: Substring) throws -> String {
        guard payload.utf8.count <= maxDownloadURLLength else {
            throw ReadingListError.badLink("the download URL is \(payload.utf8.count) bytes, more than the limit of \(maxDownloadURLLength)")
        }
        var url = String(payload)
        let lowered = url.prefix(8).lowercased()
        if !lowered.hasPrefix("http://"), !lowered.hasPrefix("https://") {
            guard let decoded = url.removingPercentEncoding else {
                throw ReadingListError.badLink("the download URL has a bad percent escape")
            }
            url = decoded
        }
        guard !url.isEmpty else { throw ReadingListError.badLink("the link carries no download URL") }
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw ReadingListError.badLink("the download URL \(PropertyListValue.quoted(url)) contains spaces or control characters")
        }
        guard let components = URLComponents(string: url),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ReadingListError.badLink("the download URL \(PropertyListValue.quoted(url)) is not an http or https URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw ReadingListError.badLink("the download URL \(PropertyListValue.quoted(url)) has no host")
        }
        return url
    }
}
