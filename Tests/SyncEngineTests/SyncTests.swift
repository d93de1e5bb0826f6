import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

/// Syncs against real servers on 127.0.0.1 (lighttpd WebDAV, sshd SFTP, the Dropbox stand-in,
/// a plain HTTP server that injects faults), with the sample library as the remote's content.
@Suite("sync against real servers")
struct SyncTests {
    /// A remote tree (Samples' library and PDFs) and this machine's folders, removed at the end.
    final class Sandbox {
        let root: URL
        let remoteRoot: URL
        let environment: [String: String]

        init() throws {
            root = try Fixtures.temporaryDirectory()
            remoteRoot = root.appendingPathComponent("remote")
            try Fixtures.copySampleLibrary(to: remoteRoot)
            environment = Fixtures.isolatedEnvironment(under: root)
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        func locations(_ name: String) -> RemoteLocations { RemoteLocations(name: name, environment: environment) }

        /// Runs a sync; `cancelAfter` cancels once that many progress events arrived.
        func sync(_ remote: Remote, _ selection: SyncSelection = SyncSelection(allPDFs: true), attempts: Int = 3, stall: Double = 30,
                  cancelAfter: Int? = nil, transportEnvironment: [String: String] = [:], accept: Bool = false) throws -> (SyncSummary, [SyncEvent]) {
            let session = try CurlSession()
            let transport = try TransportFactory.make(remote, session: session, environment: environment.merging(transportEnvironment) { $1 })
            var options = SyncOptions()
            options.selection = selection
            options.attempts = attempts
            options.backoff = 0.05
            options.stallTimeout = stall
            options.acceptFewerReferences = accept
            var events: [SyncEvent] = []
            var progressCount = 0
            let summary = try Syncer(remote: remote, locations: locations(remote.name), transport: transport, session: session)
                .run(options, events: { event in
                    if case .progress = event { progressCount += 1 }
                    events.append(event)
                }, isCancelled: { cancelAfter.map { progressCount >= $0 } ?? false })
            return (summary, events)
        }

        /// The PDFs the cache holds (relative paths), and that no `.part` is left among them.
        func cachedPDFs(_ name: String) throws -> [String] {
            let cache = locations(name).cache
            guard let enumerator = FileManager.default.enumerator(atPath: cache.path) else { return [] }
            return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".pdf") }.sorted()
        }

        func remoteBytes(_ path: String) throws -> Data { try Data(contentsOf: remoteRoot.appendingPathComponent(path)) }

        func cachedBytes(_ name: String, _ path: String) throws -> Data {
            try Data(contentsOf: locations(name).cache.appendingPathComponent(path))
        }
    }

    /// The sample PDFs that are on the remote (two linked ones are missing on purpose).
    static let samplePDFs = ["papers/incompleteness.pdf", "papers/information-theory.pdf", "papers/line-breaking.pdf",
                             "papers/shortest-paths.pdf", "papers/tex-tour.pdf"]

    @Test func webDAVSyncsTheBibFirstThenOnlyTheChosenGroupAndANoOpResyncOnlyLists() throws {
        let sandbox = try Sandbox()
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        let (first, events) = try sandbox.sync(remote, SyncSelection(groups: ["Classics"]))
        #expect(first.succeeded, "\(first)")
        #expect(events.first == .library(file: "library.bib", outcome: .updated(entries: 25)))
        let library = LibraryLoader.load(paths: sandbox.locations(remote.name).libraryFiles).library
        #expect(library.entries.count == 25)
        // Only the PDFs of Classics came: those its members link that are on the remote.
        let classics = try #require(Group.find("Classics", in: GroupCatalog.groups(of: library, synced: LinkedFileLocator.shared.isSynced(library))))
        let members = classics.members(in: library, context: GroupContext(library: library, locator: LinkedFileLocator.shared))
        let expected = Set(members.flatMap { library.entries[$0].links.files }.map { ($0.path as NSString).lastPathComponent })
            .map { "papers/\($0)" }.filter { FileManager.default.fileExists(atPath: sandbox.remoteRoot.appendingPathComponent($0).path) }.sorted()
        #expect(!expected.isEmpty && expected.count < Self.samplePDFs.count)
        #expect(try sandbox.cachedPDFs(remote.name) == expected)
        #expect(try sandbox.cachedBytes(remote.name, "papers/incompleteness.pdf") == sandbox.remoteBytes("papers/incompleteness.pdf"))
        let expectedBytes = try expected.reduce(Int64(0)) { $0 + Int64(try sandbox.remoteBytes($1).count) }
        #expect(first.recordedBytes == expectedBytes, "the summary gives the manifest's total, for the cache limit")

        let before = server.requestCount
        let (again, _) = try sandbox.sync(remote, SyncSelection(groups: ["Classics"]))
        #expect(again.downloaded == 0)
        #expect(again.current == expected.count)
        // One listing of the root (the .bib) and one of papers/: no request per file.
        #expect(server.requestCount - before <= 2, "\(server.requests.suffix(6))")
    }

    @Test func aCachedFileDamagedOnDiskIsFetchedAgain() throws {
        let sandbox = try Sandbox()
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        _ = try sandbox.sync(remote)
        // What a power cut can leave of a file whose bytes never reached the disk.
        let damaged = sandbox.locations(remote.name).cache.appendingPathComponent("papers/tex-tour.pdf")
        try Data().write(to: damaged)
        let (again, _) = try sandbox.sync(remote)
        #expect(again.downloaded == 1)
        #expect(try sandbox.cachedBytes(remote.name, "papers/tex-tour.pdf") == sandbox.remoteBytes("papers/tex-tour.pdf"))
    }

    @Test func webDAVWithBasicAuthAndWrongCredentials() throws {
        let sandbox = try Sandbox()
        let server = try WebDAVServer.start(root: sandbox.remoteRoot, user: "ada", password: "s3cret")
        defer { server.stop() }
        var remote = try Remote(url: server.baseURL.absoluteString)
        remote.credentials = .environment(user: "DAV_USER", password: "DAV_PASSWORD")
        let (summary, _) = try sandbox.sync(remote, transportEnvironment: ["DAV_USER": "ada", "DAV_PASSWORD": "s3cret"])
        #expect(summary.succeeded)
        #expect(try sandbox.cachedPDFs(remote.name) == Self.samplePDFs)
        #expect {
            try sandbox.sync(remote, transportEnvironment: ["DAV_USER": "ada", "DAV_PASSWORD": "wrong"])
        } throws: { error in
            "\(error)".contains("refused the credentials") && !"\(error)".contains("wrong")
        }
    }

    @Test func sftpWithAKeyAndKnownHosts() throws {
        let sandbox = try Sandbox()
        let server = try SFTPServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        var remote = try Remote(url: server.url.absoluteString)
        remote.credentials = .sshKey(privateKey: server.privateKeyPath, publicKey: server.publicKeyPath)
        remote.knownHosts = server.knownHostsPath
        let (summary, _) = try sandbox.sync(remote)
        #expect(summary.succeeded, "\(summary)")
        #expect(try sandbox.cachedPDFs(remote.name) == Self.samplePDFs)
        // A host key that does not match known_hosts is refused.
        let wrongHosts = sandbox.root.appendingPathComponent("known_hosts_wrong")
        try "[127.0.0.1]:\(server.port) ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHVuMKMVGE2hWuXh1rTfuFcL0i4N9dvbOtYHm1yoiBo0\n"
            .write(to: wrongHosts, atomically: true, encoding: .utf8)
        remote.knownHosts = wrongHosts.path
        remote.name = "other"
        #expect(throws: (any Error).self) { try sandbox.sync(remote) }
    }

    @Test func dropboxStandInWithContentHashes() throws {
        let sandbox = try Sandbox()
        let server = try DropboxStandIn.start(root: sandbox.remoteRoot, token: "token-123")
        defer { server.stop() }
        var remote = Remote(name: "dbx", kind: .dropbox, url: "dropbox:", credentials: .tokenEnvironment("DBX_TOKEN"))
        remote.apiBase = server.apiBase.absoluteString
        let (summary, _) = try sandbox.sync(remote, transportEnvironment: ["DBX_TOKEN": "token-123"])
        #expect(summary.succeeded, "\(summary)")
        #expect(try sandbox.cachedPDFs("dbx") == Self.samplePDFs)
        let manifest = try CacheManifest(url: sandbox.locations("dbx").manifest)
        let record = try #require(try manifest.record("papers/tex-tour.pdf"))
        #expect(record.version == (try DropboxContentHash.of(file: sandbox.remoteRoot.appendingPathComponent("papers/tex-tour.pdf"))))
        #expect {
            try sandbox.sync(remote, transportEnvironment: ["DBX_TOKEN": "bad"])
        } throws: { "\($0)".contains("refused the credentials") }
    }

    @Test func aCancelledSyncLeavesNoFinishedFileHalfWrittenAndTheNextOneResumes() throws {
        let sandbox = try Sandbox()
        let big = sandbox.remoteRoot.appendingPathComponent("papers/big.pdf")
        try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: big)
        try appendEntry("@misc{big, title = {Big}, file = {:papers/big.pdf:PDF}}", to: sandbox)
        let server = try FaultServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        try server.setFault(.slow(bytesPerSecond: 400_000), for: "papers/big.pdf")
        let remote = try Self.plainHTTPRemote(server)
        let (cancelled, _) = try sandbox.sync(remote, SyncSelection(allPDFs: true), cancelAfter: 3)
        #expect(cancelled.cancelled)
        let cache = sandbox.locations(remote.name).cache
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("papers/big.pdf").path))
        let part = cache.appendingPathComponent("papers/big.pdf.part")
        let partial = (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int64) ?? 0
        #expect(partial > 0 && partial < 3_000_000)

        try server.clearFaults()
        let (resumed, _) = try sandbox.sync(remote, SyncSelection(allPDFs: true))
        #expect(resumed.succeeded)
        #expect(try sandbox.cachedBytes(remote.name, "papers/big.pdf") == sandbox.remoteBytes("papers/big.pdf"))
        // Resumed, not started over: this run fetched at most the rest of big.pdf and the small PDFs.
        let samples = try Self.samplePDFs.reduce(0) { $0 + (try sandbox.remoteBytes($1)).count }
        #expect(resumed.downloadedBytes <= 3_000_000 - partial + Int64(samples), "\(resumed.downloadedBytes) bytes fetched")
    }

    /// A resumed download reports the rate of the bytes that arrive in this run over this run's
    /// time: the bytes of the `.part` kept from the last run are not counted (a server throttled
    /// to 300 KB/s was reported at 600 MB/s). The server cannot send faster than its throttle,
    /// so no progress event may report much more, however slow the machine.
    @Test func aResumedDownloadReportsOnlyTheRateOfThisRun() throws {
        let sandbox = try Sandbox()
        let big = sandbox.remoteRoot.appendingPathComponent("papers/big.pdf")
        try Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: big)
        try appendEntry("@misc{big, title = {Big}, wanted = {yes}, file = {:papers/big.pdf:PDF}}", to: sandbox)
        let server = try FaultServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let throttle = 300_000.0
        try server.setFault(.slow(bytesPerSecond: Int(throttle)), for: "papers/big.pdf")
        let remote = try Self.plainHTTPRemote(server)
        let onlyBig = SyncSelection(field: "wanted")
        let (cancelled, _) = try sandbox.sync(remote, onlyBig, cancelAfter: 10)
        #expect(cancelled.cancelled)
        let part = sandbox.locations(remote.name).cache.appendingPathComponent("papers/big.pdf.part")
        let partial = (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int64) ?? 0
        #expect(partial > 100_000, "the first run left \(partial) bytes to resume")

        let (resumed, events) = try sandbox.sync(remote, onlyBig)
        #expect(resumed.succeeded)
        #expect(resumed.downloadedBytes == 1_000_000 - partial)
        let rates = events.compactMap { event -> Double? in
            if case .progress(let progress) = event { return progress.rate }
            return nil
        }
        #expect(!rates.isEmpty)
        let fastest = rates.max() ?? 0
        #expect(fastest <= 2.5 * throttle, "reported \(Int(fastest)) bytes/s for a server throttled to \(Int(throttle)) (\(partial) bytes resumed)")
    }

    @Test func transientFailuresAreRetriedAndPermanentOnesLeaveTheCacheConsistent() throws {
        let sandbox = try Sandbox()
        let server = try FaultServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Self.plainHTTPRemote(server)
        // Four 503s: three for the HEAD (which gives up), one for the download (which retries).
        try server.setFault(.failTimes(4, status: 503), for: "papers/tex-tour.pdf")
        try server.setFault(.status(500), for: "papers/incompleteness.pdf")
        try server.setFault(.truncate(afterBytes: 1000), for: "papers/line-breaking.pdf")
        let (summary, events) = try sandbox.sync(remote, attempts: 3)
        #expect(!summary.succeeded)
        #expect(Set(summary.failed) == ["papers/incompleteness.pdf", "papers/line-breaking.pdf"])
        #expect(events.contains { if case .fileFailed("papers/tex-tour.pdf", _, true) = $0 { return true }; return false })
        #expect(try sandbox.cachedPDFs(remote.name) == ["papers/information-theory.pdf", "papers/shortest-paths.pdf", "papers/tex-tour.pdf"])
        let manifest = try CacheManifest(url: sandbox.locations(remote.name).manifest)
        #expect(try manifest.record("papers/incompleteness.pdf") == nil)

        try server.clearFaults()
        let (next, _) = try sandbox.sync(remote)
        #expect(next.succeeded)
        #expect(next.downloaded >= 2, "the two that failed (and tex-tour, whose version the failed HEAD never gave)")
        #expect(try sandbox.cachedPDFs(remote.name) == Self.samplePDFs)
        #expect(try sandbox.cachedBytes(remote.name, "papers/line-breaking.pdf") == sandbox.remoteBytes("papers/line-breaking.pdf"))
    }

    @Test func aServerKilledMidTransferThenBack() throws {
        let sandbox = try Sandbox()
        let server = try FaultServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Self.plainHTTPRemote(server)
        _ = try sandbox.sync(remote, SyncSelection())
        try server.setFault(.dieAfter(bytes: 5000), for: "papers/tex-tour.pdf")
        let (summary, _) = try sandbox.sync(remote, SyncSelection(groups: ["Typesetting"]), attempts: 1)
        #expect(!summary.succeeded)
        // The server exits right after its last bytes; the sync may be done before the kernel
        // reports the exit.
        let deadline = Date().addingTimeInterval(5)
        while server.isRunning && Date() < deadline { usleep(10_000) }
        #expect(!server.isRunning)
        #expect(!(try sandbox.cachedPDFs(remote.name)).contains("papers/tex-tour.pdf"))
        try server.restart()
        let (next, _) = try sandbox.sync(remote, SyncSelection(groups: ["Typesetting"]))
        #expect(next.succeeded, "\(next)")
        #expect(try sandbox.cachedBytes(remote.name, "papers/tex-tour.pdf") == sandbox.remoteBytes("papers/tex-tour.pdf"))
    }

    @Test func aStalledServerTimesOut() throws {
        let sandbox = try Sandbox()
        let server = try FaultServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Self.plainHTTPRemote(server)
        _ = try sandbox.sync(remote, SyncSelection())
        try server.setFault(.slow(bytesPerSecond: 0), for: "papers/tex-tour.pdf")
        let (summary, events) = try sandbox.sync(remote, SyncSelection(groups: ["Typesetting"]), attempts: 1, stall: 1)
        #expect(summary.failed == ["papers/tex-tour.pdf"])
        #expect(events.contains { if case .fileFailed(_, let reason, _) = $0 { return reason.contains("28") || reason.lowercased().contains("timeout") || reason.lowercased().contains("too slow") }; return false })
    }

    @Test func aBibThatNoLongerParsesNeverReplacesTheGoodOne() throws {
        let sandbox = try Sandbox()
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        _ = try sandbox.sync(remote, SyncSelection())
        try Data([0x25, 0x50, 0x44, 0x46, 0x00, 0xFF, 0x00, 0x01]).write(to: sandbox.remoteRoot.appendingPathComponent("library.bib"))
        let (_, events) = try sandbox.sync(remote, SyncSelection())
        guard case .library(_, .rejected(let reason, let kept)) = events.first else {
            Issue.record("expected the download to be refused: \(events)")
            return
        }
        #expect(reason.contains("binary"))
        #expect(FileManager.default.fileExists(atPath: kept))
        #expect(LibraryLoader.load(paths: sandbox.locations(remote.name).libraryFiles).library.entries.count == 25)
    }

    /// A first sync whose .bib is set aside has no library to choose PDFs from: it fails.
    @Test func aFirstSyncWithoutAUsableBibFails() throws {
        let sandbox = try Sandbox()
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        try Data([0x25, 0x50, 0x44, 0x46, 0x00, 0xFF, 0x00, 0x01]).write(to: sandbox.remoteRoot.appendingPathComponent("library.bib"))
        let (summary, _) = try sandbox.sync(remote, SyncSelection(allPDFs: true))
        #expect(summary.libraryMissing)
        #expect(!summary.succeeded)
        #expect(summary.problems == ["no .bib file of remote '\(remote.name)' is on this machine yet"])
        #expect(try sandbox.cachedPDFs(remote.name).isEmpty)
    }

    @Test func linksOutsideTheRemoteAndSymlinksInTheCacheAreRefused() throws {
        let sandbox = try Sandbox()
        try appendEntry("@misc{escape, title = {Escape}, file = {:../../outside.pdf:PDF}}", to: sandbox)
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        let locations = sandbox.locations(remote.name)
        // A symbolic link planted where a PDF folder goes must not be followed.
        let elsewhere = sandbox.root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: locations.cache, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: locations.cache.appendingPathComponent("papers"), withDestinationURL: elsewhere)
        #expect(throws: (any Error).self) { try sandbox.sync(remote) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
        try FileManager.default.removeItem(at: locations.cache.appendingPathComponent("papers"))
        let (summary, _) = try sandbox.sync(remote)
        #expect(summary.problems.contains { $0.contains("escape") && $0.contains("outside the remote") })
        #expect(!FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("outside.pdf").path))
    }

    @Test func aFullDiskFailsCleanlyAndTheNextSyncCompletes() throws {
        let sandbox = try Sandbox()
        let cache = sandbox.root.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        // Room for the cache manifest (its migrations and log) and a PDF or so, not for the
        // 276 kB of sample PDFs.
        let mount = try ProcessRunner.run(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=140k", "tmpfs", cache.path])
        try #require(mount.status == 0, "the test mounts a small tmpfs (it needs root): \(mount.standardError)")
        defer { _ = try? ProcessRunner.run(URL(fileURLWithPath: "/bin/umount"), [cache.path]) }
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        let (full, _) = try sandbox.sync(remote, attempts: 1)
        #expect(!full.failed.isEmpty)
        let manifest = try CacheManifest(url: sandbox.locations(remote.name).manifest)
        for record in try manifest.all() {
            #expect(try sandbox.cachedBytes(remote.name, record.path) == sandbox.remoteBytes(record.path), "\(record.path) is recorded and whole")
        }
        let grow = try ProcessRunner.run(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,size=10m", cache.path])
        try #require(grow.status == 0, "\(grow.standardError)")
        let (next, _) = try sandbox.sync(remote)
        #expect(next.succeeded, "\(next)")
        #expect(try sandbox.cachedPDFs(remote.name) == Self.samplePDFs)
    }

    @Test(arguments: [("../etc/passwd", "climbs out"), ("/etc/passwd", "absolute"), ("a\u{0}b.pdf", "NUL"),
                      (String(repeating: "x", count: 300) + ".pdf", "longer than 255"), ("", "empty"),
                      ("a/../b.pdf", "climbs out"), ("\\server\\x.pdf", "absolute"),
                      (String(repeating: "é", count: 128) + ".pdf", "longer than 255")])
    func unsafeRemotePathsAreRefused(_ path: String, _ reason: String) {
        #expect {
            try RemotePath.validated(path)
        } throws: { "\($0)".contains(reason) }
    }

    @Test(arguments: [("papers/a.pdf", "papers/a.pdf"), ("a//b/./c.pdf", "a/b/c.pdf"), ("./x.pdf", "x.pdf"),
                      ("a/", "a"), ("Müller/Éclair.pdf", "Müller/Éclair.pdf"), ("a/.../b.pdf", "a/.../b.pdf"),
                      ("..a/b..", "..a/b.."), (String(repeating: "é", count: 127) + "x", String(repeating: "é", count: 127) + "x")])
    func remotePathsAreNormalised(_ path: String, _ expected: String) throws {
        #expect(try RemotePath.validated(path) == expected)
    }

    /// The fault server as a plain HTTP remote (no listing: the .bib is named).
    /// A download with more errors than the copy in use is kept aside. The count of the copy
    /// in use is the one recorded when it was put in place while the file is unchanged, and
    /// counted again once it was edited here.
    @Test func aBibWithMoreErrorsThanTheCopyInUseIsKeptAsideCountingAnEditedCopyAgain() throws {
        let sandbox = try Sandbox()
        let server = try WebDAVServer.start(root: sandbox.remoteRoot)
        defer { server.stop() }
        let remote = try Remote(url: server.baseURL.absoluteString)
        func broken(_ key: String) -> String { "@article{\(key), title = \"x\" author = {y}}" }
        try appendEntry(broken("broken1"), to: sandbox)
        let (first, firstEvents) = try sandbox.sync(remote, SyncSelection())
        #expect(first.succeeded)
        #expect(firstEvents.first == .library(file: "library.bib", outcome: .updated(entries: 26)))

        try appendEntry(broken("broken2"), to: sandbox)
        let (_, secondEvents) = try sandbox.sync(remote, SyncSelection())
        guard case .library(_, .rejected(let reason, _)) = secondEvents.first else {
            Issue.record("expected the download with 2 errors to be refused: \(secondEvents)")
            return
        }
        #expect(reason.contains("2 errors where the copy in use has 1"), "\(reason)")

        // Edited here, the copy in use has 4 errors: the download's 2 are fewer. It has 29
        // references, the download 27: the two added here would go, which only --accept allows.
        let local = try #require(sandbox.locations(remote.name).libraryFiles.first)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: local))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + ["a", "b", "c"].map { broken("edited-" + $0) }.joined(separator: "\n") + "\n").utf8))
        try handle.close()
        // The push of the copy edited here fails first (this remote is read-only), and says so.
        let (_, unaccepted) = try sandbox.sync(remote, SyncSelection())
        #expect(unaccepted.first.map { "\($0)" }?.contains("were not pushed") == true, "\(unaccepted)")
        guard case .library(_, .rejected(let loss, _)) = unaccepted.first(where: { if case .library = $0 { true } else { false } }) else {
            Issue.record("expected the download that drops 2 references to be refused: \(unaccepted)")
            return
        }
        #expect(loss.hasPrefix("it has 27 references where the copy in use has 29: 2 would be dropped"), "\(loss)")
        let (third, thirdEvents) = try sandbox.sync(remote, SyncSelection(), accept: true)
        #expect(third.succeeded)
        #expect(thirdEvents.contains(.library(file: "library.bib", outcome: .updated(entries: 27))), "\(thirdEvents)")
        #expect(LibraryLoader.load(paths: [local]).library.errorCount == 2)
    }

    static func plainHTTPRemote(_ server: FaultServer) throws -> Remote {
        var remote = try Remote(url: server.baseURL.absoluteString, kind: .http)
        remote.libraries = ["library.bib"]
        return remote
    }

    private func appendEntry(_ text: String, to sandbox: Sandbox) throws {
        let library = sandbox.remoteRoot.appendingPathComponent("library.bib")
        let handle = try FileHandle(forWritingTo: library)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(("\n" + text + "\n").utf8))
        try handle.close()
    }
}
