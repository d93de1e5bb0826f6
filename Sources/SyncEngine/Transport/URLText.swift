import BibModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
