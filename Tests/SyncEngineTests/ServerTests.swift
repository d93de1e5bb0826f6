import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The local servers the sync tests run against, checked with the curl program: each one must
/// speak its protocol faithfully before product code is tested against it.
@Suite("Test servers", .onOwnThreads)
struct ServerTests {
    // MARK: WebDAV (lighttpd + mod_webdav)

    @Test func webDAVPropfindDepthOneListsFilesWithETags() async throws {
        let root = try makeTree(["refs.bib": bytes(300, seed: 1), "papers/Smith 2020.pdf": bytes(5000, seed: 2)])
        defer { remove(root) }
        let server = try WebDAVServer.start(root: root)
        defer { server.stop() }

        let query = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:getetag/><D:getlastmodified/><D:getcontentlength/><D:resourcetype/></D:prop></D:propfind>
        """
        let result = try await curl(["-X", "PROPFIND", "-H", "Depth: 1", "-H", "Content-Type: application/xml",
                                     "--data-binary", query, "-w", "\n%{http_code}", server.baseURL.absoluteString])
        let (status, body) = splitStatus(result)
        #expect(status == 207, "\(body)\(result.standardError)")
        #expect(body.contains("<D:href>/refs.bib</D:href>"), "\(body)")
        #expect(body.contains("<D:href>/papers/</D:href>"), "\(body)")
        #expect(!body.contains("Smith"), "Depth 1 must not descend into papers/: \(body)")
        #expect(body.contains("<D:getcontentlength>300</D:getcontentlength>"), "\(body)")
        #expect(body.contains("<D:getetag>\""), "\(body)")
        #expect(body.contains("<D:getlastmodified"), "\(body)")
        #expect(server.requestCount == 1, "\(server.requests)")
        #expect(server.requests.first?.hasPrefix("PROPFIND / 207") == true, "\(server.requests)")

        // The folder below: a name with a space comes back percent-encoded.
        let inner = try await curl(["-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}",
                                    server.url(for: "papers").absoluteString + "/"])
        let (innerStatus, innerBody) = splitStatus(inner)
        #expect(innerStatus == 207)
        #expect(innerBody.contains("<D:href>/papers/Smith%202020.pdf</D:href>"), "\(innerBody)")
        #expect(innerBody.contains("<D:getcontentlength>5000</D:getcontentlength>"), "\(innerBody)")
    }

    @Test func webDAVRangeRequestGivesPartialContent() async throws {
        let payload = bytes(10_000, seed: 3)
        let root = try makeTree(["papers/a.pdf": payload])
        defer { remove(root) }
        let server = try WebDAVServer.start(root: root)
        defer { server.stop() }
        let output = root.appendingPathComponent("range.out")

        let result = try await curl(["-r", "100-1099", "-o", output.path, "-w", "%{http_code}",
                                     server.url(for: "papers/a.pdf").absoluteString])
        #expect(result.output == "206", "\(result.standardError)")
        #expect(try Data(contentsOf: output) == payload.subdata(in: 100..<1100))

        let whole = try await curl(["-o", output.path, "-w", "%{http_code}", server.url(for: "papers/a.pdf").absoluteString])
        #expect(whole.output == "200")
        #expect(try Data(contentsOf: output) == payload)
        #expect(server.requestCount == 2, "\(server.requests)")
    }

    @Test func webDAVRequiresBasicAuthWhenConfigured() async throws {
        let root = try makeTree(["refs.bib": bytes(64, seed: 4)])
        defer { remove(root) }
        let server = try WebDAVServer.start(root: root, user: "alice", password: "s3cret:with-colon")
        defer { server.stop() }
        let file = server.url(for: "refs.bib").absoluteString

        let anonymous = try await curl(["-o", "/dev/null", "-w", "%{http_code}", file])
        #expect(anonymous.output == "401")
        let wrong = try await curl(["-u", "alice:nope", "-o", "/dev/null", "-w", "%{http_code}", file])
        #expect(wrong.output == "401")
        let listing = try await curl(["-X", "PROPFIND", "-H", "Depth: 1", "-o", "/dev/null", "-w", "%{http_code}",
                                      server.baseURL.absoluteString])
        #expect(listing.output == "401")

        let output = root.appendingPathComponent("auth.out")
        let good = try await curl(["-u", "alice:s3cret:with-colon", "-o", output.path, "-w", "%{http_code}", file])
        #expect(good.output == "200", "\(good.standardError)")
        #expect(try Data(contentsOf: output) == bytes(64, seed: 4))
    }

    @Test func webDAVETagChangesWhenAFileIsRewritten() async throws {
        let root = try makeTree(["refs.bib": bytes(100, seed: 27)])
        defer { remove(root) }
        let server = try WebDAVServer.start(root: root)
        defer { server.stop() }
        let file = server.url(for: "refs.bib").absoluteString

        func etags() async throws -> (propfind: String?, get: String?) {
            let listing = try await curl(["-X", "PROPFIND", "-H", "Depth: 0", file]).output
            let propfind = listing.firstMatch(of: /<D:getetag>([^<]*)<\/D:getetag>/).map { String($0.1) }
            let headers = try await curl(["-D", "-", "-o", "/dev/null", file]).output
            let get = headers.firstMatch(of: /(?i)\r\nETag: ([^\r]*)\r\n/).map { String($0.1) }
            return (propfind, get)
        }
        let before = try await etags()
        #expect(before.propfind != nil && before.propfind == before.get, "\(before)")
        // Same size, same second: still a new ETag (lighttpd's stat cache is off).
        try bytes(100, seed: 28).write(to: root.appendingPathComponent("refs.bib"))
        let after = try await etags()
        #expect(after.propfind != nil && after.propfind == after.get, "\(after)")
        #expect(after.propfind != before.propfind)
    }

    // MARK: Static HTTP (lighttpd)

    @Test func staticHTTPServesFilesButListsNoFolder() async throws {
        let payload = bytes(2048, seed: 5)
        let root = try makeTree(["library.bib": payload, "papers/b.pdf": bytes(10, seed: 6)])
        defer { remove(root) }
        let server = try StaticHTTPServer.start(root: root)
        defer { server.stop() }
        let output = root.appendingPathComponent("static.out")

        let file = try await curl(["-o", output.path, "-w", "%{http_code}", server.url(for: "library.bib").absoluteString])
        #expect(file.output == "200", "\(file.standardError)")
        #expect(try Data(contentsOf: output) == payload)

        let range = try await curl(["-r", "-10", "-o", output.path, "-w", "%{http_code}", server.url(for: "library.bib").absoluteString])
        #expect(range.output == "206")
        #expect(try Data(contentsOf: output) == payload.suffix(10))

        for folder in [server.baseURL.absoluteString, server.url(for: "papers").absoluteString + "/"] {
            let listing = try await curl(["-w", "\n%{http_code}", folder])
            let (status, body) = splitStatus(listing)
            #expect(status == 403, "\(folder): \(body)")
            #expect(!body.contains("b.pdf") && !body.contains("library.bib"), "\(body)")
        }
        let propfind = try await curl(["-X", "PROPFIND", "-H", "Depth: 1", "-o", "/dev/null", "-w", "%{http_code}",
                                       server.baseURL.absoluteString])
        #expect(propfind.output != "207")
        let missing = try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.url(for: "nothing.pdf").absoluteString])
        #expect(missing.output == "404")
        #expect(server.requestCount == 6, "\(server.requests)")
    }

    // MARK: SFTP (sshd + internal-sftp)

    @Test func sftpDownloadsWithTheClientKeyAndChecksTheHostKey() async throws {
        let payload = bytes(70_000, seed: 7)
        let root = try makeTree(["papers/Jones 2019.pdf": payload, "refs.bib": bytes(10, seed: 8)])
        defer { remove(root) }
        let server = try SFTPServer.start(root: root)
        defer { server.stop() }
        #expect(server.url.absoluteString.hasPrefix("sftp://\(server.user)@127.0.0.1:\(server.port)/"))
        #expect(try String(contentsOfFile: server.knownHostsPath, encoding: .utf8)
            .hasPrefix("[127.0.0.1]:\(server.port) ssh-ed25519 "))

        // The curl program reads known hosts only from ~/.ssh/known_hosts: give it a home whose
        // known_hosts is the server's, so the host key really is checked (no --insecure).
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: server.knownHostsPath, toPath: home.appendingPathComponent(".ssh/known_hosts").path)
        let keys = ["--key", server.privateKeyPath, "--pubkey", server.publicKeyPath]
        let output = root.appendingPathComponent("sftp.out")

        let download = try await curl(keys + ["-o", output.path, server.url(for: "papers/Jones 2019.pdf").absoluteString],
                                      environment: ["HOME": home.path])
        #expect(download.status == 0, "\(download.standardError)\(log(server.logPath))")
        #expect(try Data(contentsOf: output) == payload)

        let listing = try await curl(keys + [server.url.absoluteString + "/"], environment: ["HOME": home.path])
        #expect(listing.status == 0, "\(listing.standardError)")
        #expect(listing.output.contains("refs.bib") && listing.output.contains("papers"), "\(listing.output)")

        // A known_hosts naming another key for this server: curl refuses to connect (60).
        let otherHome = root.appendingPathComponent("other-home")
        try FileManager.default.createDirectory(at: otherHome.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try "[127.0.0.1]:\(server.port) \(otherEd25519Key)\n"
            .write(to: otherHome.appendingPathComponent(".ssh/known_hosts"), atomically: true, encoding: .utf8)
        let refused = try await curl(keys + ["-o", "/dev/null", server.url(for: "refs.bib").absoluteString],
                                     environment: ["HOME": otherHome.path])
        #expect(refused.status == 60, "\(refused.standardError)")
    }

    @Test func sftpRefusesAKeyItDoesNotKnow() async throws {
        let root = try makeTree(["refs.bib": bytes(10, seed: 9)])
        defer { remove(root) }
        let server = try SFTPServer.start(root: root)
        defer { server.stop() }
        let other = root.appendingPathComponent("other_key")
        let keygen = try await ToolRunner.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other.path])
        #expect(keygen.status == 0, "\(keygen.standardError)")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".ssh"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: server.knownHostsPath, toPath: home.appendingPathComponent(".ssh/known_hosts").path)
        let result = try await curl(["--key", other.path, "--pubkey", other.path + ".pub", "-o", "/dev/null",
                                     server.url(for: "refs.bib").absoluteString], environment: ["HOME": home.path])
        #expect(result.status == 67, "login denied expected: \(result.standardError)")
    }

    // MARK: Dropbox stand-in

    @Test func dropboxListFolderPaginatesAndContinues() async throws {
        let root = try makeTree(["a.bib": bytes(10, seed: 10), "b.bib": bytes(20, seed: 11),
                                 "Papers/One.pdf": bytes(30, seed: 12), "Papers/Two.pdf": bytes(40, seed: 13)])
        defer { remove(root) }
        let dropbox = try DropboxStandIn.start(root: root, token: "test-token")
        defer { dropbox.stop() }

        var page = try await rpc(dropbox, "2/files/list_folder", ["path": "", "recursive": true, "limit": 2])
        #expect(page.status == 200, "\(page.text)")
        var paths: [String] = []
        var pages = 0
        while true {
            pages += 1
            let json = try #require(page.json, "\(page.text)")
            let entries = try #require(json["entries"] as? [[String: Any]])
            #expect(entries.count <= 2)
            paths += entries.compactMap { $0["path_display"] as? String }
            guard json["has_more"] as? Bool == true else { break }
            let cursor = try #require(json["cursor"] as? String)
            page = try await rpc(dropbox, "2/files/list_folder/continue", ["cursor": cursor])
            #expect(page.status == 200, "\(page.text)")
            if pages > 10 { Issue.record("pagination does not end"); break }
        }
        #expect(pages == 3)
        #expect(paths == ["/a.bib", "/b.bib", "/Papers", "/Papers/One.pdf", "/Papers/Two.pdf"])

        // Not recursive, in a folder named in another case: its files only, with their metadata.
        let folder = try await rpc(dropbox, "2/files/list_folder", ["path": "/papers"])
        let entries = try #require(folder.json?["entries"] as? [[String: Any]], "\(folder.text)")
        #expect(entries.map { $0["path_lower"] as? String } == ["/papers/one.pdf", "/papers/two.pdf"])
        let one = try #require(entries.first)
        #expect(one[".tag"] as? String == "file")
        #expect(one["name"] as? String == "One.pdf")
        #expect(one["size"] as? Int == 30)
        #expect((one["id"] as? String)?.hasPrefix("id:") == true)
        #expect((one["rev"] as? String).map { $0.count >= 9 } == true)
        for key in ["client_modified", "server_modified"] {
            #expect((one[key] as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "\(key)")
        }
        #expect(folder.json?["has_more"] as? Bool == false)
        #expect(dropbox.requestCount == 4, "\(dropbox.requests)")
    }

    @Test func dropboxCursorReportsLaterChanges() async throws {
        let root = try makeTree(["a.bib": bytes(10, seed: 14), "old/x.pdf": bytes(10, seed: 15)])
        defer { remove(root) }
        let dropbox = try DropboxStandIn.start(root: root, token: "t")
        defer { dropbox.stop() }
        let first = try await rpc(dropbox, "2/files/list_folder", ["path": "", "recursive": true])
        let cursor = try #require(first.json?["cursor"] as? String, "\(first.text)")
        #expect(first.json?["has_more"] as? Bool == false)

        try FileManager.default.removeItem(at: root.appendingPathComponent("old"))
        try bytes(11, seed: 16).write(to: root.appendingPathComponent("a.bib"))
        try bytes(5, seed: 17).write(to: root.appendingPathComponent("new.bib"))
        let changes = try await rpc(dropbox, "2/files/list_folder/continue", ["cursor": cursor])
        let entries = try #require(changes.json?["entries"] as? [[String: Any]], "\(changes.text)")
        let summary = entries.map { "\($0[".tag"] as? String ?? "?") \($0["path_lower"] as? String ?? "?")" }
        #expect(summary == ["deleted /old", "file /a.bib", "file /new.bib"])
    }

    @Test func dropboxDownloadUsesTheArgumentHeaderAndHonoursRange() async throws {
        let payload = bytes(100_000, seed: 18)
        let root = try makeTree(["Papers/Zoë 2021.pdf": payload])
        defer { remove(root) }
        let dropbox = try DropboxStandIn.start(root: root, token: "tok")
        defer { dropbox.stop() }
        let output = root.appendingPathComponent("download.out")
        let headers = root.appendingPathComponent("download.headers")
        // Non-ASCII in the header is escaped as JSON \u sequences, as Dropbox requires.
        let argument = #"{"path": "/papers/zo\u00eb 2021.PDF"}"#

        let result = try await curl(["-X", "POST", "-H", "Authorization: Bearer tok", "-H", "Dropbox-API-Arg: \(argument)",
                                     "-D", headers.path, "-o", output.path, "-w", "%{http_code}",
                                     dropbox.contentBase.appendingPathComponent("2/files/download").absoluteString])
        #expect(result.output == "200", "\(result.standardError)\(log(dropbox.logPath))")
        #expect(try Data(contentsOf: output) == payload)
        let metadata = try #require(apiResult(headers), "\((try? String(contentsOf: headers, encoding: .utf8)) ?? "")")
        #expect(metadata["path_display"] as? String == "/Papers/Zoë 2021.pdf")
        #expect(metadata["size"] as? Int == payload.count)
        let expectedHash = try await expectedContentHash(root.appendingPathComponent("Papers/Zoë 2021.pdf"))
        #expect(metadata["content_hash"] as? String == expectedHash)

        let partial = try await curl(["-X", "POST", "-H", "Authorization: Bearer tok", "-H", "Dropbox-API-Arg: \(argument)",
                                      "-r", "1000-1999", "-D", headers.path, "-o", output.path, "-w", "%{http_code}",
                                      dropbox.contentBase.appendingPathComponent("2/files/download").absoluteString])
        #expect(partial.output == "206")
        #expect(try Data(contentsOf: output) == payload.subdata(in: 1000..<2000))
        #expect(try String(contentsOf: headers, encoding: .utf8).contains("Content-Range: bytes 1000-1999/100000"))
        #expect(apiResult(headers) != nil)
    }

    @Test func dropboxContentHashFollowsTheDocumentedAlgorithm() async throws {
        // Three 4 MiB blocks (the last one short), and an empty file (no blocks at all).
        let big = bytes(9 * 1024 * 1024 + 17, seed: 19)
        let root = try makeTree(["big.pdf": big, "empty.bib": Data()])
        defer { remove(root) }
        let dropbox = try DropboxStandIn.start(root: root, token: "tok")
        defer { dropbox.stop() }
        let listing = try await rpc(dropbox, "2/files/list_folder", ["path": ""])
        let entries = try #require(listing.json?["entries"] as? [[String: Any]], "\(listing.text)")
        let hashes = Dictionary(uniqueKeysWithValues: entries.map { ($0["name"] as? String ?? "", $0["content_hash"] as? String) })
        let expectedHash = try await expectedContentHash(root.appendingPathComponent("big.pdf"))
        #expect(expectedHash.count == 64)
        #expect(hashes["big.pdf"] == expectedHash)
        // SHA-256 of nothing: no block digests to hash.
        #expect(hashes["empty.bib"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func dropboxErrorsLikeDropbox() async throws {
        let root = try makeTree(["a.bib": bytes(10, seed: 20)])
        defer { remove(root) }
        let dropbox = try DropboxStandIn.start(root: root, token: "right")
        defer { dropbox.stop() }

        let badToken = try await rpc(dropbox, "2/files/list_folder", ["path": ""], token: "wrong")
        #expect(badToken.status == 401)
        #expect((badToken.json?["error_summary"] as? String)?.hasPrefix("invalid_access_token/") == true, "\(badToken.text)")
        #expect((badToken.json?["error"] as? [String: Any])?[".tag"] as? String == "invalid_access_token")

        let missingFolder = try await rpc(dropbox, "2/files/list_folder", ["path": "/nowhere"])
        #expect(missingFolder.status == 409)
        #expect((missingFolder.json?["error_summary"] as? String)?.hasPrefix("path/not_found/") == true, "\(missingFolder.text)")

        let download = dropbox.contentBase.appendingPathComponent("2/files/download").absoluteString
        let missingFile = try await curl(["-X", "POST", "-H", "Authorization: Bearer right",
                                          "-H", #"Dropbox-API-Arg: {"path": "/nothing.pdf"}"#, "-w", "\n%{http_code}", download])
        let (status, body) = splitStatus(missingFile)
        #expect(status == 409)
        #expect(body.contains(#""error_summary": "path/not_found/"#), "\(body)")

        // Dropbox refuses "/" for the root (it is ""), and an RPC call that is not JSON.
        let slash = try await rpc(dropbox, "2/files/list_folder", ["path": "/"])
        #expect(slash.status == 400)
        let form = try await curl(["-X", "POST", "-H", "Authorization: Bearer right", "-d", #"{"path": ""}"#,
                                   "-o", "/dev/null", "-w", "%{http_code}",
                                   dropbox.apiBase.appendingPathComponent("2/files/list_folder").absoluteString])
        #expect(form.output == "400")
    }

    // MARK: Fault server

    @Test func faultServerFailsTimesThenServes() async throws {
        let payload = bytes(5000, seed: 21)
        let root = try makeTree(["papers/a.pdf": payload, "b.bib": bytes(10, seed: 22)])
        defer { remove(root) }
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        try server.setFault(.failTimes(2, status: 503), for: "/papers/a.pdf")
        let url = server.url(for: "papers/a.pdf").absoluteString
        let output = root.appendingPathComponent("fault.out")

        var statuses: [String] = []
        for _ in 0..<3 {
            statuses.append(try await curl(["-o", output.path, "-w", "%{http_code}", url]).output)
        }
        #expect(statuses == ["503", "503", "200"])
        #expect(try Data(contentsOf: output) == payload)

        // Other paths are not affected; a status fault stays until removed.
        let other = try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.url(for: "b.bib").absoluteString])
        #expect(other.output == "200")
        try server.setFault(.status(500), for: "b.bib")
        for _ in 0..<2 {
            #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.url(for: "b.bib").absoluteString]).output == "500")
        }
        try server.setFault(.none, for: "b.bib")
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.url(for: "b.bib").absoluteString]).output == "200")

        let range = try await curl(["-r", "10-19", "-o", output.path, "-w", "%{http_code}", url])
        #expect(range.output == "206")
        #expect(try Data(contentsOf: output) == payload.subdata(in: 10..<20))
        #expect(server.requestCount == 8, "\(server.requests)")
    }

    @Test func faultServerTruncatedBodyIsDetected() async throws {
        let root = try makeTree(["a.pdf": bytes(50_000, seed: 23)])
        defer { remove(root) }
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        try server.setFault(.truncate(afterBytes: 1000), for: "a.pdf")
        let output = root.appendingPathComponent("truncated.out")
        let result = try await curl(["-o", output.path, server.url(for: "a.pdf").absoluteString])
        #expect(result.status == 18, "partial file expected: \(result.standardError)")
        #expect(try Data(contentsOf: output).count == 1000)
        #expect(server.isRunning)
    }

    /// The fault server as a WebDAV server that misbehaves: its listing without lengths, and a
    /// body that ends when the connection closes, cut short, which curl takes as complete.
    @Test func faultServerListsFoldersAndCutsCloseDelimitedBodies() async throws {
        let payload = bytes(300_000, seed: 26)
        let root = try makeTree(["papers/a.pdf": payload])
        defer { remove(root) }
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        let listing = ["-X", "PROPFIND", "-H", "Depth: 1", "-w", "\n%{http_code}", server.baseURL.absoluteString + "papers/"]
        let full = try await curl(listing)
        #expect(full.output.hasSuffix("207"), "\(full.output)")
        #expect(full.output.contains("<D:href>/papers/a.pdf</D:href>") && full.output.contains("<D:getcontentlength>300000<"))
        #expect(full.output.contains("<D:getetag>\""))
        try server.setFault(.listingWithoutLengths, for: "/papers/")
        let bare = try await curl(listing)
        #expect(bare.output.contains("<D:href>/papers/a.pdf</D:href>") && !bare.output.contains("getcontentlength"), "\(bare.output)")

        try server.setFault(.closeDelimited(afterBytes: 100_000), for: "papers/a.pdf")
        let output = root.appendingPathComponent("cut.out")
        let cut = try await curl(["-D", "-", "-o", output.path, server.url(for: "papers/a.pdf").absoluteString])
        #expect(cut.status == 0, "a close-delimited body cut short looks complete to curl: \(cut.standardError)")
        #expect(!cut.output.lowercased().contains("content-length"), "\(cut.output)")
        #expect(try Data(contentsOf: output) == payload.prefix(100_000))
    }

    @Test func faultServerSlowBodyTimesOut() async throws {
        let root = try makeTree(["a.pdf": bytes(100_000, seed: 24)])
        defer { remove(root) }
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        try server.setFault(.slow(bytesPerSecond: 2000), for: "*")
        let result = try await curl(["--max-time", "1", "-o", "/dev/null", server.url(for: "a.pdf").absoluteString])
        // 100 kB at 2 kB/s takes 50 s: only a timeout ends it sooner.
        #expect(result.status == 28, "timeout expected: \(result.standardError)")
    }

    @Test func faultServerDiesMidTransferAndRestarts() async throws {
        let payload = bytes(200_000, seed: 25)
        let root = try makeTree(["a.pdf": payload])
        defer { remove(root) }
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        try server.setFault(.dieAfter(bytes: 4096), for: "a.pdf")
        let url = server.url(for: "a.pdf").absoluteString
        let output = root.appendingPathComponent("died.out")

        let died = try await curl(["-o", output.path, url])
        #expect([18, 56].contains(died.status), "connection cut mid-body expected: \(died.status) \(died.standardError)")
        #expect(try Data(contentsOf: output).count == 4096)
        var waited = 0
        while server.isRunning && waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        #expect(!server.isRunning)
        let refused = try await curl(["-o", "/dev/null", url])
        #expect(refused.status == 7, "nothing listens while it is down: \(refused.standardError)")

        try server.restart()
        #expect(server.isRunning)
        let again = try await curl(["-o", output.path, "-w", "%{http_code}", url])
        #expect(again.output == "200", "\(again.standardError)")
        #expect(try Data(contentsOf: output) == payload)
        // Resuming the cut transfer is what a sync would do: Range from where it stopped.
        let resumed = try await curl(["-r", "4096-", "-o", output.path, "-w", "%{http_code}", url])
        #expect(resumed.output == "206")
        #expect(try Data(contentsOf: output) == payload.subdata(in: 4096..<payload.count))
        #expect(server.requestCount == 3, "\(server.requests)")
    }

    @Test func serversDoNotInheritTheTestProcessDescriptors() async throws {
        // A pipe without close-on-exec, like the ones Foundation.Process makes for other tests:
        // a server that inherited its write end would keep another test's reader from ever
        // seeing end-of-file. No process started for these servers may hold it.
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let root = try makeTree(["a.bib": bytes(10, seed: 29)])
        defer { remove(root) }
        let fault = try FaultServer.start(root: root)
        defer { fault.stop() }
        let lighttpd = try StaticHTTPServer.start(root: root)
        defer { lighttpd.stop() }
        let sftp = try SFTPServer.start(root: root)
        defer { sftp.stop() }
        let markers = [fault.logPath, lighttpd.logPath, sftp.logPath].map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        var info = stat()
        #expect(fstat(fds[1], &info) == 0)
        let holders = processesHolding("pipe:[\(info.st_ino)]").filter { $0.pid != getpid() }
        let servers = holders.filter { holder in markers.contains { holder.commandLine.contains($0) } }
        #expect(servers.isEmpty, "\(servers)")
    }

    @Test func serversStartInParallelOnDistinctPorts() async throws {
        let root = try makeTree(["a.bib": bytes(10, seed: 26)])
        defer { remove(root) }
        let servers = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<6 {
                group.addTask {
                    switch index % 3 {
                    case 0:
                        let server = try StaticHTTPServer.start(root: root)
                        defer { server.stop() }
                        return (server.port, try await curl(["-w", "%{http_code}", "-o", "/dev/null", server.url(for: "a.bib").absoluteString]).output)
                    case 1:
                        let server = try FaultServer.start(root: root)
                        defer { server.stop() }
                        return (server.port, try await curl(["-w", "%{http_code}", "-o", "/dev/null", server.url(for: "a.bib").absoluteString]).output)
                    default:
                        let server = try WebDAVServer.start(root: root)
                        defer { server.stop() }
                        return (server.port, try await curl(["-w", "%{http_code}", "-o", "/dev/null", server.url(for: "a.bib").absoluteString]).output)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(servers.map(\.0)).count == 6)
        #expect(servers.allSatisfy { $0.1 == "200" }, "\(servers)")
    }
}

// MARK: - Helpers

/// Runs curl quietly (errors still on stderr), never following the user's ~/.curlrc.
private func curl(_ arguments: [String], environment: [String: String?] = [:]) async throws -> ToolResult {
    try await ToolRunner.curl(["-q", "-sS"] + arguments, environment: environment, timeout: .seconds(20))
}

/// Splits output written with `-w "\n%{http_code}"` into the status and the body.
private func splitStatus(_ result: ToolResult) -> (status: Int, body: String) {
    let text = result.output
    guard let newline = text.lastIndex(of: "\n") else { return (Int(text) ?? -1, "") }
    return (Int(text[text.index(after: newline)...]) ?? -1, String(text[..<newline]))
}

/// A Dropbox RPC call through curl: status, parsed JSON (when the answer is JSON) and raw text.
private func rpc(_ dropbox: DropboxStandIn, _ endpoint: String, _ argument: [String: Any],
                 token: String? = nil) async throws -> (status: Int, json: [String: Any]?, text: String) {
    let body = String(decoding: try JSONSerialization.data(withJSONObject: argument), as: UTF8.self)
    let result = try await curl(["-X", "POST", "-H", "Authorization: Bearer \(token ?? dropbox.token)",
                                 "-H", "Content-Type: application/json", "--data-binary", body, "-w", "\n%{http_code}",
                                 dropbox.apiBase.appendingPathComponent(endpoint).absoluteString])
    let (status, text) = splitStatus(result)
    let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    return (status, json, text + result.standardError)
}

/// The Dropbox-API-Result header of a response whose headers curl saved with -D.
private func apiResult(_ headers: URL) -> [String: Any]? {
    guard let text = try? String(contentsOf: headers, encoding: .utf8) else { return nil }
    for line in text.split(separator: "\r\n") where line.lowercased().hasPrefix("dropbox-api-result:") {
        let value = line.dropFirst("dropbox-api-result:".count)
        return try? JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any]
    }
    return nil
}

/// Dropbox's content hash computed independently of the stand-in, with Python's hashlib:
/// SHA-256 of the concatenated SHA-256 digests of the 4 MiB blocks, in hex.
private func expectedContentHash(_ file: URL) async throws -> String {
    let script = """
    import hashlib, sys
    digests = b""
    with open(sys.argv[1], "rb") as f:
        for block in iter(lambda: f.read(4 * 1024 * 1024), b""):
            digests += hashlib.sha256(block).digest()
    print(hashlib.sha256(digests).hexdigest())
    """
    let result = try await ToolRunner.run("/usr/bin/python3", ["-c", script, file.path])
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A temporary folder holding `files` (relative path → contents).
private func makeTree(_ files: [String: Data]) throws -> URL {
    let root = try Fixtures.temporaryDirectory()
    for (path, data) in files {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
    return root
}

private func remove(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}

/// `count` reproducible pseudo-random bytes.
private func bytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        bytes[index] = UInt8(truncatingIfNeeded: state)
    }
    return Data(bytes)
}

private func log(_ path: String) -> String {
    "\n--- \(path):\n" + ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
}

/// The processes with a file descriptor whose /proc link reads `target`, with their command lines.
private func processesHolding(_ target: String) -> [(pid: Int32, commandLine: String)] {
    let fileManager = FileManager.default
    var holders: [(pid: Int32, commandLine: String)] = []
    for entry in (try? fileManager.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = Int32(entry) else { continue }
        let descriptors = (try? fileManager.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let holds = descriptors.contains { (try? fileManager.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == target }
        guard holds else { continue }
        let commandLine = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        holders.append((pid, String(decoding: commandLine.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)))
    }
    return holders
}

/// An ed25519 public key that is not the server's, for a known_hosts that must not match.
private let otherEd25519Key: String = {
    var blob = Data([0, 0, 0, 11])
    blob.append(Data("ssh-ed25519".utf8))
    blob.append(Data([0, 0, 0, 32]))
    blob.append(Data(repeating: 0x42, count: 32))
    return "ssh-ed25519 " + blob.base64EncodedString()
}()
