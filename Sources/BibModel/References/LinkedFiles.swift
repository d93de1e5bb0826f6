import Foundation
import PropertyList

/// The binary plist reader (see `PropertyList.BinaryPropertyList`), under the name BibModel has
/// always offered it.
public typealias BinaryPropertyList = PropertyList.BinaryPropertyList
/// A property-list value (see `PropertyList.PropertyListValue`).
public typealias PropertyListValue = PropertyList.PropertyListValue
/// Why a property list could not be read (see `PropertyList.PropertyListError`).
public typealias PropertyListError = PropertyList.PropertyListError

/// A file a reference points at, resolved to an absolute path.
public struct LinkedFile: Sendable, Hashable {
    /// The absolute path, NFC-normalised (a Windows path stays as written).
    public let path: String
    /// The label JabRef keeps with a file (`Full text`), if any.
    public let label: String?
    /// The file type JabRef or Zotero keeps (`PDF`, `application/pdf`), if any.
    public let fileType: String?
    /// The field the link came from (lower case: `bdsk-file-1`, `file`, `pdf`).
    public let field: String

    public init(path: String, label: String?, fileType: String?, field: String) {
        self.path = path
        self.label = label
        self.fileType = fileType
        self.field = field
    }

    /// True when the file is on this machine (at its path, or as a synced copy: `localPath`).
    public var exists: Bool { localPath != nil }

    /// Where the file is on this machine: its path, or the copy a sync put in the cache for a
    /// remote library (`LinkedFileAliases`); nil when it is in neither place.
    public var localPath: String? {
        if LinkedFile.isRegularFile(path) { return path }
        return LinkedFileAliases.shared.alias(of: path).flatMap { LinkedFile.isRegularFile($0) ? $0 : nil }
    }

    /// Whether the file belongs to a synced remote library and may be fetched from it: false
    /// when a sync looked for it and the remote did not have it (`LinkedFileAliases.setAbsent`).
    public var isRemote: Bool {
        guard let alias = LinkedFileAliases.shared.alias(of: path) else { return false }
        return !LinkedFileAliases.shared.isAbsent(alias)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// True when the file looks like a PDF by its name or declared type.
    public var isPDF: Bool {
        path.lowercased().hasSuffix(".pdf") || fileType?.lowercased().contains("pdf") == true
    }
}

/// Where a reference's PDFs are: on this machine, only on the remote its synced library
/// came from (listed there, not downloaded yet), or nowhere.
public enum PDFPlace: Int, Sendable {
    case nowhere = 0, here = 1, remoteOnly = 2

    /// Looks at the disk (and at the caches of synced libraries) for the entry's PDFs.
    public init(of entry: Entry) {
        let pdfs = entry.links.files.filter(\.isPDF)
        if pdfs.contains(where: \.exists) {
            self = .here
        } else {
            self = pdfs.contains(where: \.isRemote) ? .remoteOnly : .nowhere
        }
    }
}

/// Folders whose files live elsewhere on this machine: a synced remote's library folder (and the
/// absolute folders its path mapping names) map to its PDF cache.
public final class LinkedFileAliases: @unchecked Sendable {
    /// The process's aliases, registered when a synced library is opened.
    public static let shared = LinkedFileAliases()

    private let lock = NSLock()
    private var folders: [(from: String, to: String)] = []
    private var absent: Set<String> = []

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

    /// Whether `aliasPath` (a path `alias(of:)` gave) is a file the remote does not have.
    public func isAbsent(_ aliasPath: String) -> Bool {
        lock.withLock { absent.contains(aliasPath) }
    }

    /// The aliased path of `path`, if it is under a registered folder.
    public func alias(of path: String) -> String? {
        let normalised = path.utf8.contains(UInt8(ascii: "\\")) ? path.replacingOccurrences(of: "\\", with: "/") : path
        return lock.withLock {
            folders.first { normalised.hasPrefix($0.from) }.map { $0.to + normalised.dropFirst($0.from.count) }
        }
    }
}

/// A problem with a link field, reported by `bibread check`.
public struct LinkProblem: Sendable, Hashable {
    public let field: String
    public let message: String
}

/// The linked files, web links and link problems of one reference.
public struct Links: Sendable {
    public var files: [LinkedFile] = []
    public var urls: [String] = []
    public var problems: [LinkProblem] = []

    /// Adds a web link unless it is there already; a DOI link in any of its forms
    /// (`http://dx.doi.org/…`) becomes `https://doi.org/DOI`, and a DOI counts once whatever
    /// its case (DOIs ignore case).
    mutating func appendURL(_ url: String) {
        let (link, isDOI) = LinkPaths.normalisedLink(url)
        guard !urls.contains(where: { $0 == link || (isDOI && LinkPaths.equalIgnoringASCIICase($0, link)) }) else { return }
        urls.append(link)
    }
}

extension Entry {
    /// Linked files (BibDesk `Bdsk-File-N`, JabRef/Zotero/Mendeley `file`, `pdf`, `local-url`) and
    /// web links (`url`, `Bdsk-Url-N`, `doi`, arXiv `eprint`), resolved against the .bib's folder.
    public var links: Links {
        var links = Links()
        let base = source.directory
        for field in fields {
            if field.kind.isBibDeskFile {
                switch BibDeskFile.relativePath(fromBase64: rawText(of: field)) {
                case .success(let relative):
                    links.files.append(LinkedFile(path: LinkPaths.resolve(relative, against: base), label: nil, fileType: nil,
                                                  field: name(of: field)))
                case .failure(let problem):
                    links.problems.append(LinkProblem(field: spelledName(of: field), message: problem.description))
                }
            } else if field.kind.isBibDeskURL || field.kind.known == .url {
                let url = decodedText(of: field)
                if !url.isEmpty { links.appendURL(url) }
            } else if field.kind.isFileList {
                let fieldName = name(of: field)
                for item in FileFieldParser.items(rawText(of: field)) {
                    switch item {
                    case .url(let url):
                        links.appendURL(url)
                    case .file(let path, let label, let type):
                        links.files.append(LinkedFile(path: LinkPaths.resolve(path, against: base), label: label, fileType: type, field: fieldName))
                    }
                }
            }
        }
        if let doi = decoded(.doi), !doi.isEmpty {
            links.appendURL(LinkPaths.doiURL(doi))
        }
        if let arXiv = arXivIdentifier {
            links.appendURL("https://arxiv.org/abs/\(arXiv)")
        }
        return links
    }
}

/// Decodes BibDesk's `Bdsk-File-N`: base64 of a binary plist that is either a plain dictionary
/// with `relativePath` or an NSKeyedArchiver archive whose root holds it.
public enum BibDeskFile {
    /// Why a `Bdsk-File-N` value gave no path.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notBase64
        case notPropertyList(String)
        case noRelativePath

        public var description: String {
            switch self {
            case .notBase64: return "not valid base64"
            case .notPropertyList(let why): return "does not decode to a BibDesk file record: \(why)"
            case .noRelativePath: return "BibDesk file record has no relativePath (only alias data, which only macOS can resolve)"
            }
        }
    }

    /// The `relativePath` stored in a `Bdsk-File-N` value.
    public static func relativePath(fromBase64 text: String) -> Result<String, Problem> {
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters) else { return .failure(.notBase64) }
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("bplist".utf8)) else { return .failure(.notPropertyList("not a binary property list")) }
        let plist: PropertyListValue
        do {
            plist = try BinaryPropertyList.parse(bytes, limits: limits)
        } catch {
            return .failure(.notPropertyList(error.description))
        }
        if let path = plist["relativePath"]?.string { return .success(path) }
        if let archive = KeyedArchive(plist), let root = archive.root,
           let path = archive.value(forKey: "relativePath", in: root)?.string {
            return .success(path)
        }
        return .failure(.noRelativePath)
    }

    /// A file record is a small archive: a few levels and a few dozen objects.
    private static let limits = PropertyListLimits(maxDepth: 64, maxValues: 100_000, maxBytes: 1 << 20)
}

/// Splits a `file` field in JabRef's (`label:path:type;...` with `\` escapes), Mendeley's
/// (`:path:pdf`) or Zotero Better BibTeX's (`path;path`) form.
enum FileFieldParser {
    enum Item: Equatable {
        case file(path: String, label: String?, type: String?)
        case url(String)
    }

    static func items(_ raw: String) -> [Item] {
        var result: [Item] = []
        for item in split(raw) {
            let unescaped = item.parts.joined(separator: ":").trimmedASCII
            if unescaped.isEmpty { continue }
            if isURL(unescaped) {
                result.append(.url(unescaped))
                continue
            }
            let parts = item.parts
            switch parts.count {
            case 1:
                result.append(.file(path: parts[0], label: nil, type: nil))
            case 2:
                if isDriveLetter(parts[0]) {
                    result.append(.file(path: parts.joined(separator: ":"), label: nil, type: nil))
                } else if looksLikeFileType(parts[1]) {
                    result.append(.file(path: parts[0], label: nil, type: parts[1]))
                } else {
                    result.append(.file(path: parts[1], label: parts[0].isEmpty ? nil : parts[0], type: nil))
                }
            default:
                let path = parts[1..<(parts.count - 1)].joined(separator: ":")
                let label = parts[0].isEmpty ? nil : parts[0]
                let type = parts[parts.count - 1].isEmpty ? nil : parts[parts.count - 1]
                if isURL(path) {
                    result.append(.url(path))
                } else if !path.isEmpty {
                    result.append(.file(path: path, label: label, type: type))
                }
            }
        }
        return result
    }

    /// Splits at unescaped `;` (between files) and, inside, at unescaped `:`; `\x` stands for
    /// `x`. Byte by byte, as JabRef reads it code unit by code unit: the three are ASCII, so no
    /// byte of a multi-byte character is taken for one.
    private static func split(_ raw: String) -> [(parts: [String], raw: String)] {
        var items: [(parts: [String], raw: String)] = []
        var parts: [String] = []
        var current: [UInt8] = []
        var itemRaw: [UInt8] = []
        var escaped = false
        for byte in raw.utf8 {
            if escaped {
                current.append(byte)
                itemRaw.append(byte)
                escaped = false
                continue
            }
            switch byte {
            case UInt8(ascii: "\\"):
                escaped = true
            case UInt8(ascii: ";"):
                parts.append(String(decoding: current, as: UTF8.self))
                items.append((parts, String(decoding: itemRaw, as: UTF8.self)))
                parts = []
                current.removeAll(keepingCapacity: true)
                itemRaw.removeAll(keepingCapacity: true)
            case UInt8(ascii: ":"):
                parts.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
                itemRaw.append(byte)
            default:
                current.append(byte)
                itemRaw.append(byte)
            }
        }
        parts.append(String(decoding: current, as: UTF8.self))
        items.append((parts, String(decoding: itemRaw, as: UTF8.self)))
        return items.filter { !$0.raw.trimmedASCII.isEmpty }
    }

    private static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("ftp://")
    }

    private static func isDriveLetter(_ text: String) -> Bool {
        text.count == 1 && text.first?.isLetter == true
    }

    private static func looksLikeFileType(_ text: String) -> Bool {
        let trimmed = text.trimmedASCII
        if trimmed.contains("/") { return !trimmed.contains(".") && trimmed.split(separator: "/").count == 2 }
        return !trimmed.isEmpty && trimmed.count <= 12 && trimmed.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }
}

/// Turns the paths link fields hold into absolute, NFC-normalised paths.
enum LinkPaths {
    /// Where a DOI link goes: the one form every DOI link is given in.
    static let doiResolver = "https://doi.org/"

    /// The forms of DOI links other than `doiResolver`, in lower case.
    private static let otherDOIResolvers = ["http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/",
                                            "https://www.doi.org/", "http://www.doi.org/"]
    /// Every form of DOI link, `doiResolver` last, as bytes.
    private static let doiResolvers = (otherDOIResolvers + [doiResolver]).map { Array($0.utf8) }

    /// A link in the form it is shown: a DOI link on `https://doi.org/`, any other unchanged;
    /// and whether it is a DOI link.
    ///
    /// Every URL of every reference passes here when a library is listed, so its first bytes
    /// are compared in place (Foundation's `contains` on Strings cost 13 M instructions for
    /// tugboat.bib's 4,800 entries, and generic `starts(with:)` over a copy 15 M).
    static func normalisedLink(_ url: String) -> (link: String, isDOI: Bool) {
        var url = url
        let resolverLength = url.withUTF8 { bytes -> Int? in
            // Every resolver has its `d` at byte 7, 8, 11 or 12 (`http://doi.org/`,
            // `https://dx.`, `http://www.doi`, `https://www.doi`): most links have none there.
            guard [7, 8, 11, 12].contains(where: { $0 < bytes.count && bytes[$0] | 0x20 == UInt8(ascii: "d") }) else { return nil }
            for resolver in doiResolvers where bytes.count >= resolver.count {
                var index = 0
                while index < resolver.count {
                    let byte = bytes[index]
                    if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != resolver[index] { break }
                    index += 1
                }
                if index == resolver.count { return index }
            }
            return nil
        }
        guard let resolverLength else { return (url, false) }
        return (doiResolver + String(decoding: url.utf8.dropFirst(resolverLength), as: UTF8.self), true)
    }

    /// True when two strings are equal but for the case of ASCII letters (DOIs ignore case).
    static func equalIgnoringASCIICase(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        return zip(first.utf8, second.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && a | 0x20 >= 0x61 && a | 0x20 <= 0x7A)
        }
    }

    /// The web address of a `doi` value: itself when it already is one (`http...` in any case),
    /// else `https://doi.org/` and the DOI with every `doi:` taken out.
    static func doiURL(_ doi: String) -> String {
        var doi = doi
        let (isURL, mentionsDOI) = doi.withUTF8 { bytes -> (Bool, Bool) in
            let http = "http".utf8
            if bytes.count >= 4, zip(bytes, http).allSatisfy({ $0 | 0x20 == $1 }) { return (true, false) }
            return (false, contains(bytes, "doi:"))
        }
        if isURL { return doi }
        return "https://doi.org/" + (mentionsDOI ? doi.replacing("doi:", with: "") : doi)
    }

    /// True when `bytes` hold the ASCII text `word` (a few bytes) somewhere.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard count > 0, bytes.count >= count, let base = bytes.baseAddress else { return false }
        let first = word.utf8Start.pointee
        var index = 0
        while index + count <= bytes.count {
            if base[index] == first, memcmp(base + index, word.utf8Start, count) == 0 { return true }
            index += 1
        }
        return false
    }

    static func resolve(_ path: String, against base: String) -> String {
        var path = path.trimmedASCII
        if path.hasPrefix("file://"), let url = URL(string: path), url.isFileURL {
            path = url.path
        }
        if path.count >= 3, path.dropFirst().first == ":", path.first?.isLetter == true {
            return nfc(path)  // Windows: C:\...
        }
        if !path.hasPrefix("/") && path.utf8.contains(UInt8(ascii: "\\")) {
            // Relative paths written on Windows (`papers\\a.pdf`, `~\\storage\\a.pdf`).
            path = path.replacingOccurrences(of: "\\", with: "/")
        }
        if path.hasPrefix("~/") {
            path = FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst()
        }
        if !path.hasPrefix("/") {
            let relative = base + "/" + path
            // Mendeley drops the leading slash of absolute paths: `:Users/me/x.pdf:pdf`.
            if !FileManager.default.fileExists(atPath: relative), FileManager.default.fileExists(atPath: "/" + path) {
                path = "/" + path
            } else {
                path = relative
            }
        }
        return nfc(isStandardized(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path)
    }

    /// True when `path` is absolute and has no `.` or `..` component, no empty one and no
    /// trailing slash: standardizing it would change nothing (and costs a URL and a stat).
    static func isStandardized(_ path: String) -> Bool {
        var previous: UInt8 = 0
        var componentStart = true
        var dots = 0
        for (position, byte) in path.utf8.enumerated() {
            if position == 0 {
                guard byte == UInt8(ascii: "/") else { return false }
            } else if byte == UInt8(ascii: "/") {
                // An empty component (`//`), or `.` or `..`, ends here.
                if previous == UInt8(ascii: "/") || (componentStart && dots > 0) { return false }
                componentStart = true
                dots = 0
                previous = byte
                continue
            }
            if componentStart {
                if byte == UInt8(ascii: "."), position > 0 {
                    dots += 1
                    if dots > 2 { componentStart = false }
                } else if position > 0 {
                    componentStart = false
                }
            }
            previous = byte
        }
        return previous != UInt8(ascii: "/") && !(componentStart && dots > 0) && !path.isEmpty
    }

    /// NFC, skipping Foundation's normaliser for ASCII paths (nearly all of them).
    private static func nfc(_ path: String) -> String {
        path.utf8.allSatisfy { $0 < 0x80 } ? path : path.precomposedStringWithCanonicalMapping
    }
}
