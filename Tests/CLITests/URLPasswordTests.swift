import BibreadTestSupport
import Foundation
import Testing

/// A password given in a remote's URL (`https://alice:PASSWORD@host/…`) is never written to the
/// remote's settings (`.bibread-remote.json`, readable by everyone): it is kept in a
/// credentials file only its owner can read, and the sync says where (issue 26, item 8).
@Suite("a password in a remote's URL")
struct URLPasswordTests {
    static let password = "Pa55-w0rd-s3cret"

    /// The files below `folder` whose bytes hold `secret`.
    private func files(in folder: URL, holding secret: String, sandbox: SyncSandbox) -> [URL] {
        sandbox.files(under: folder).map { folder.appendingPathComponent($0) }.filter { url in
            guard let data = try? Data(contentsOf: url) else { return false }
            return data.range(of: Data(secret.utf8)) != nil
        }
    }

    private func mode(_ url: URL) -> mode_t {
        var status = stat()
        return lstat(url.path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    /// Checks that the password is only in a credentials file of mode 0600 in a folder of
    /// mode 0700, named by `messages`; returns that file.
    @discardableResult
    private func passwordIsKeptPrivately(_ sandbox: SyncSandbox, named messages: String) throws -> URL {
        let holders = files(in: sandbox.root, holding: Self.password, sandbox: sandbox)
        #expect(holders.count == 1, "the password is in \(holders.map(\.path))")
        let credentials = try #require(holders.first)
        #expect(!credentials.path.hasPrefix(sandbox.root.appendingPathComponent("data/bibread/remotes").path), "\(credentials.path)")
        #expect(mode(credentials) == 0o600, "\(credentials.path) has mode \(String(mode(credentials), radix: 8))")
        let folder = credentials.deletingLastPathComponent()
        #expect(mode(folder) == 0o700, "\(folder.path) has mode \(String(mode(folder), radix: 8))")
        #expect(messages.contains(credentials.path), "the sync does not say where the password is: \(messages)")
        return credentials
    }

    @Test func aPasswordInTheURLIsKeptInACredentialsFileNotInTheRemotesSettings() throws {
        let sandbox = try SyncSandbox()
        let server = try WebDAVServer.start(root: sandbox.remote, user: "alice", password: Self.password)
        defer { server.stop() }
        let url = "http://alice:\(Self.password)@127.0.0.1:\(server.port)/"
        let sync = try sandbox.bibread(["sync", url, "--name", "c", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(!(sync.standardOutput + sync.standardError).contains(Self.password), "\(sync.standardError)")
        let settings = sandbox.library("c").appendingPathComponent(".bibread-remote.json")
        let saved = try String(contentsOf: settings, encoding: .utf8)
        #expect(!saved.contains(Self.password), "\(saved)")
        try passwordIsKeptPrivately(sandbox, named: sync.standardError)

        // By its name, the remote logs in with the password kept.
        let again = try sandbox.bibread(["sync", "c", "--group", "Typesetting"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardError.contains("library.bib: up to date"), "\(again.standardError)")
        #expect(!(again.standardOutput + again.standardError).contains(Self.password))
        // The URL given again, password and all: the settings still hold none.
        let sameURL = try sandbox.bibread(["sync", url, "--name", "c", "--group", "Typesetting"])
        #expect(sameURL.status == 0, "\(sameURL.standardError)")
        #expect(files(in: sandbox.root, holding: Self.password, sandbox: sandbox).count == 1)
    }

    /// Settings written by an earlier bibread hold the URL with its password, readable by
    /// everyone: the next sync of that remote moves the password to the credentials file,
    /// says so, and still logs in.
    @Test func aPasswordSavedByAnEarlierVersionIsMovedTheNextTimeTheRemoteIsUsed() throws {
        let sandbox = try SyncSandbox()
        let server = try WebDAVServer.start(root: sandbox.remote, user: "alice", password: Self.password)
        defer { server.stop() }
        let folder = sandbox.library("old")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let settings = folder.appendingPathComponent(".bibread-remote.json")
        let url = "http:\\/\\/alice:\(Self.password)@127.0.0.1:\(server.port)\\/"
        try Data(("{\"apiBase\":\"https:\\/\\/api.dropboxapi.com\",\"credentials\":{\"netrc\":{}},\"kind\":\"webdav\",\"libraries\":[],"
                  + "\"name\":\"old\",\"pathMapping\":{},\"url\":\"\(url)\"}").utf8).write(to: settings)
        chmod(settings.path, 0o644)

        let sync = try sandbox.bibread(["sync", "old", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated"), "\(sync.standardError)")
        #expect(!(sync.standardOutput + sync.standardError).contains(Self.password), "\(sync.standardError)")
        #expect(try !String(contentsOf: settings, encoding: .utf8).contains(Self.password))
        try passwordIsKeptPrivately(sandbox, named: sync.standardError)
        let again = try sandbox.bibread(["sync", "old"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(!again.standardError.contains("credentials"), "the move is said once: \(again.standardError)")
    }

    /// A URL bibread cannot use is repeated in the message without its password.
    @Test func aRefusedURLIsRepeatedWithoutItsPassword() throws {
        let sandbox = try SyncSandbox()
        let refused = try sandbox.bibread(["sync", "ftp://alice:\(Self.password)@127.0.0.1/papers/"])
        #expect(refused.status == 64, "\(refused.standardError)")
        #expect(!(refused.standardOutput + refused.standardError).contains(Self.password), "\(refused.standardError)")
        #expect(refused.standardError.contains("127.0.0.1/papers/"), "\(refused.standardError)")
    }
}
