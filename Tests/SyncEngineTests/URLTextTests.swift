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
        #expect(URLText.withoutCredentials("https://me:secret@dav.example.org?x=a@b") == "https://dav.example.org?x=a@b")
    }

    /// What may be written where others read it: the user name stays, the password goes.
    @Test(arguments: [
        ("https://me:secret@dav.example.org/lib/", "https://me@dav.example.org/lib/"),
        ("https://me:p%40ss:w@host:8443/x", "https://me@host:8443/x"),
        ("sftp://me@host:2222/papers", "sftp://me@host:2222/papers"),
        ("https://dav.example.org/a:b@c/", "https://dav.example.org/a:b@c/"),
        ("dropbox:/Papers", "dropbox:/Papers"),
    ])
    func passwordsAreLeftOutOfWhatIsStored(url: String, expected: String) {
        #expect(URLText.withoutPassword(url) == expected)
    }

    /// A password moved out of the URL keeps its user, decoded, in the store.
    @Test func aPasswordMovesToTheStore() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = CredentialStore(environment: ["HOME": root.path, "XDG_CONFIG_HOME": root.path])
        var remote = try Remote(url: "https://me:p%40ss:w@host/dav/")
        #expect(try remote.movePassword(to: store))
        #expect(remote.url == "https://me@host/dav/" && remote.credentials == .stored)
        #expect(store.login(for: "dav") == CredentialStore.Login(user: "me", password: "p@ss:w"))
        #expect(try !remote.movePassword(to: store), "nothing left to move")
        var withoutPassword = try Remote(url: "https://me@host/dav/")
        #expect(try !withoutPassword.movePassword(to: store))
        #expect(withoutPassword.credentials == .netrc)
    }

    /// Logins saved at the same time for different remotes (two syncs, each of its own remote)
    /// are all kept: each save reads, changes and replaces the file under a lock, so none is
    /// written over by another's older copy.
    @Test func loginsSavedAtOnceAreAllKept() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = CredentialStore(environment: ["HOME": root.path, "XDG_CONFIG_HOME": root.path])
        let count = 24
        DispatchQueue.concurrentPerform(iterations: count) { index in
            try? store.save(CredentialStore.Login(user: "u\(index)", password: "p\(index)"), for: "remote\(index)")
        }
        let missing = (0..<count).filter { store.login(for: "remote\($0)") == nil }
        #expect(missing.isEmpty, "logins lost: \(missing.map { "remote\($0)" })")
    }
}
