import Foundation
import PropertyList

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
