import Foundation
import SyncEngine
import Testing

/// URLText: the path encoding of remote files in URLs, and credentials kept out of messages.
@Suite("URL text")
struct URLTextTests {
    /// What Foundation writes for the same path: each component percent-encoded with
    /// `urlPathAllowed` less `/?#;` (the encoder bibread used before it had its own).
    private func foundationEncoded(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#;")
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }

    @Test(arguments: [
        ("papers/p0001.pdf", "papers/p0001.pdf"),
        ("Papers/Knuth 1984.pdf", "Papers/Knuth%201984.pdf"),
        ("a?b#c;d%e.pdf", "a%3Fb%23c%3Bd%25e.pdf"),
        ("Gödel/Über.pdf", "G%C3%B6del/%C3%9Cber.pdf"),
        ("x!$&'()*+,=:@~-._y", "x!$&'()*+,=:@~-._y"),
        ("//double//", "//double//"),
        ("", ""),
    ])
    func encodesEachComponentOfAPath(path: String, expected: String) {
        #expect(URLText.encodedPath(path) == expected)
        #expect(URLText.encodedPath(path) == foundationEncoded(path))
    }

    @Test func writesEveryASCIICharacterAndSomeUnicodeAsFoundationDoes() {
        var samples = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["é", "ß", "日本", "😀", "\u{301}", "a\u{0}b", "Ω/ω", "\u{7F}\u{80}"]
        for sample in samples {
            let path = "dir " + sample + "/file" + sample + ".pdf"
            #expect(URLText.encodedPath(path) == foundationEncoded(path), "\(path.debugDescription)")
        }
    }

    @Test func credentialsAreLeftOutOfMessages() {
        #expect(URLText.withoutCredentials("https://me:secret@dav.example.org/lib/") == "https://dav.example.org/lib/")
        #expect(URLText.withoutCredentials("sftp://me@host:2222/papers") == "sftp://host:2222/papers")
        #expect(URLText.withoutCredentials("https://dav.example.org/a@b/") == "https://dav.example.org/a@b/")
    }
}
