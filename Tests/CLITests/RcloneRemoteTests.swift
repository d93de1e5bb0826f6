import BibreadTestSupport
import Foundation
import Testing

/// `bibread sync rclone:REMOTE:path` (issue 30) with the real rclone and a test-only rclone
/// configuration: rclone's `local` backend on a folder, a `crypt` remote over it (names and
/// bytes encrypted on "the server"), and rclone's `webdav` backend on the test lighttpd.
@Suite("rclone remotes with the real rclone")
struct RcloneRemoteTests {
    enum Backend: String, CaseIterable, Sendable { case local, crypt, webdav }

    /// The sample library on an rclone remote, and two machines (XDG folders of their own) whose
    /// config.toml names it `lab`.
    final class Setup {
        let root: URL
        /// The folder rclone's local backend (or lighttpd) keeps: plain files, or encrypted ones.
        let store: URL
        let rclone: RcloneConfig
        /// The rclone path of the library's folder (`vault:`), for reading and writing it as another client would.
        let libraryRoot: String
        let url: String
        let machineA: [String: String]
        let machineB: [String: String]
        private var server: WebDAVServer?

        init(_ backend: Backend) throws {
            root = try Fixtures.temporaryDirectory()
            store = root.appendingPathComponent("store")
            rclone = try RcloneConfig(in: root.appendingPathComponent("rclone"))
            try rclone.addLocal("disk")
            switch backend {
            case .local:
                try Fixtures.copySampleLibrary(to: store)
                libraryRoot = "disk:\(store.path)/"
            case .crypt:
                try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
                try rclone.addCrypt("vault", over: "disk:\(store.path)", password: "correct horse battery staple")
                let plain = root.appendingPathComponent("plain")
                try Fixtures.copySampleLibrary(to: plain)
                try rclone.run(["copy", plain.path, "vault:"])
                try FileManager.default.removeItem(at: plain)
                libraryRoot = "vault:"
            case .webdav:
                try Fixtures.copySampleLibrary(to: store)
                let server = try WebDAVServer.start(root: store, writable: true)
                try rclone.addWebDAV("dav", url: server.baseURL)
                self.server = server
                libraryRoot = "dav:"
            }
            url = "rclone:" + libraryRoot
            machineA = Fixtures.isolatedEnvironment(under: root.appendingPathComponent("a")).merging(rclone.environment) { $1 }
            machineB = Fixtures.isolatedEnvironment(under: root.appendingPathComponent("b")).merging(rclone.environment) { $1 }
            for (machine, name) in [(machineA, "laptop"), (machineB, "desktop")] {
                let folder = root.appendingPathComponent(machine == machineA ? "a" : "b").appendingPathComponent("config/bibread")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try "device_name = \"\(name)\"\n\n[[remote]]\nname = \"lab\"\nurl = \"\(url)\"\n"
                    .write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
            }
        }

        deinit {
            server?.stop()
            try? FileManager.default.removeItem(at: root)
        }

        func run(_ machine: [String: String], _ arguments: [String]) throws -> ProcessResult {
            try ProcessRunner.bibread(arguments, environment: machine)
        }

        /// Runs bibread on `machine`, expects it to succeed, and returns what it said (both streams).
        @discardableResult
        func succeed(_ machine: [String: String], _ arguments: String..., sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
            let result = try run(machine, arguments)
            #expect(result.status == 0, "bibread \(arguments.joined(separator: " ")): \(result.standardError)", sourceLocation: sourceLocation)
            return result.standardError + result.standardOutput
        }

        /// The remote's library.bib as rclone reads it (decrypted from a crypt remote).
        func remoteLibrary() throws -> String {
            try rclone.run(["cat", libraryRoot + "library.bib"])
        }

        /// Writes library.bib on the remote as another client would (through rclone).
        func writeRemoteLibrary(_ text: String) throws {
            let file = root.appendingPathComponent("other-client.bib")
            try text.write(to: file, atomically: true, encoding: .utf8)
            try rclone.run(["copyto", "--ignore-times", file.path, libraryRoot + "library.bib"])
        }

        /// The PDFs machine A keeps of the remote, with their inode and modification time.
        func cachedPDFs() -> [String: [Int]] {
            FolderState.of(root.appendingPathComponent("a/cache/bibread/lab/papers"))
        }
    }

    @Test("sync: the .bib, then the chosen PDFs, byte for byte; a second sync downloads nothing", arguments: Backend.allCases)
    func syncThenSyncAgain(backend: Backend) throws {
        let setup = try Setup(backend)
        let first = try setup.succeed(setup.machineA, "sync", "lab", "--group", "Typesetting")
        #expect(first.contains("library.bib: updated (25 references)"), "\(first)")
        // How many PDFs the group links: as many as the sync downloaded, and at least the two checked below.
        let downloaded = try #require(first.firstMatch(of: /Done: (\d+) downloaded/).flatMap { Int($0.1) }, "\(first)")
        #expect(downloaded >= 2)
        let cache = setup.root.appendingPathComponent("a/cache/bibread/lab")
        for pdf in ["papers/tex-tour.pdf", "papers/line-breaking.pdf"] {
            let here = try Data(contentsOf: cache.appendingPathComponent(pdf))
            let there = try Data(contentsOf: Fixtures.samples.appendingPathComponent(pdf))
            #expect(here == there, "\(pdf)")
        }
        #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("papers/incompleteness.pdf").path))
        let before = setup.cachedPDFs()
        let again = try setup.succeed(setup.machineA, "sync", "lab", "--group", "Typesetting")
        #expect(again.contains("library.bib: up to date"), "\(again)")
        #expect(again.contains("Done: 0 downloaded (0 B), \(downloaded) already current"), "\(again)")
        #expect(setup.cachedPDFs() == before, "a no-op sync wrote a cached PDF again")
        let read = try setup.run(setup.machineA, ["read", "lab", "knuth1984texbook", "--page", "1", "--width", "60"])
        #expect(read.standardOutput.contains("Origins"), "\(read.standardError)")
    }

    @Test("An edit made here reaches the remote, merged with a change another client made there meanwhile (never over it)",
          arguments: Backend.allCases)
    func anEditIsPushedAndAChangeThereIsKept(backend: Backend) throws {
        let setup = try Setup(backend)
        try setup.succeed(setup.machineA, "sync", "lab")
        try setup.succeed(setup.machineA, "mark", "lab", "turing1936computable", "read")
        // Another client changes another reference on the remote before this machine pushes.
        let theirs = try setup.remoteLibrary().replacingOccurrences(of: "{A Mathematical Theory of Communication}",
                                                                     with: "{A Mathematical Theory of Communication, edited elsewhere}")
        try #require(theirs != (try setup.remoteLibrary()), "the sample's title line moved")
        try setup.writeRemoteLibrary(theirs)
        let push = try setup.succeed(setup.machineA, "sync", "lab")
        #expect(push.contains("library.bib: pushed 1 edit made here, merged with the remote's changes"), "\(push)")
        let remote = try setup.remoteLibrary()
        #expect(remote.contains("edited elsewhere"), "the other client's change was overwritten")
        #expect(remote.range(of: #"turing1936computable,[^@]*read\s*= \{1\}"#, options: .regularExpression) != nil, "\(remote)")
    }

    @Test("The reading state travels through the rclone remote: a bookmark made on A is on B after both sync",
          arguments: Backend.allCases)
    func aBookmarkTravels(backend: Backend) throws {
        let setup = try Setup(backend)
        try setup.succeed(setup.machineA, "sync", "lab")
        try setup.succeed(setup.machineB, "sync", "lab")
        try setup.succeed(setup.machineA, "bookmarks", "add", "knuth1984texbook:#3", "--folder", "Seminar", "--name", "made on the laptop")
        try setup.succeed(setup.machineA, "sync", "lab")
        try setup.succeed(setup.machineB, "sync", "lab")
        let list = try setup.succeed(setup.machineB, "bookmarks", "list")
        #expect(list.contains("made on the laptop"), "\(list)")
        #expect(list.contains("Seminar"), "\(list)")
    }

    @Test("A crypt remote keeps no name and no byte of the library in the clear on the server")
    func cryptKeepsNothingInTheClear() throws {
        let setup = try Setup(.crypt)
        try setup.succeed(setup.machineA, "sync", "lab", "--all-pdfs")
        try setup.succeed(setup.machineA, "mark", "lab", "turing1936computable", "read")
        try setup.succeed(setup.machineA, "bookmarks", "add", "knuth1984texbook:#3", "--name", "secret bookmark")
        try setup.succeed(setup.machineA, "sync", "lab")
        #expect(try setup.remoteLibrary().contains("turing1936computable"))
        guard let files = FileManager.default.enumerator(atPath: setup.store.path)?.compactMap({ $0 as? String }) else {
            Issue.record("nothing in \(setup.store.path)")
            return
        }
        // The library, its five PDFs, their folder, the state's folders and logs: all there, all encrypted.
        #expect(files.count >= 9, "\(files)")
        for word in ["library", ".bib", ".pdf", "papers", "knuth", ".bibread", "state", "jsonl"] {
            #expect(!files.contains { $0.lowercased().contains(word) }, "'\(word)' in a name on the server: \(files)")
        }
        for file in files {
            let bytes = (try? Data(contentsOf: setup.store.appendingPathComponent(file))) ?? Data()
            for text in ["@book", "turing1936computable", "secret bookmark", "%PDF"] {
                #expect(bytes.range(of: Data(text.utf8)) == nil, "'\(text)' in the clear in \(file)")
            }
        }
    }

    @Test("rclone not installed: one line that says how to install it, and a failure status")
    func rcloneMissing() throws {
        let setup = try Setup(.local)
        var machine = setup.machineA
        machine["PATH"] = setup.root.appendingPathComponent("empty-bin").path
        let result = try setup.run(machine, ["sync", "lab"])
        #expect(result.status != 0)
        #expect(result.standardError == "bibread: rclone is not installed (or not on PATH): \(Self.installAdvice)\n", "\(result.standardError)")
        let byURL = try setup.run(machine, ["sync", setup.url])
        #expect(byURL.status != 0)
        #expect(byURL.standardError.contains("apt install rclone"), "\(byURL.standardError)")
    }

    static let installAdvice = "install it with 'apt install rclone' (Debian, Ubuntu), or see https://rclone.org/install/"

    @Test("rclone's errors are shown cleaned: no password of its configuration, no control characters, one short line")
    func rcloneErrorsAreCleaned() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("remote")
        try Fixtures.copySampleLibrary(to: folder)
        let server = try WebDAVServer.start(root: folder, user: "jane", password: "right-password")
        defer { server.stop() }
        let rclone = try RcloneConfig(in: root.appendingPathComponent("rclone"))
        // The URL itself carries a user and a password (rclone passes them on), and the one in
        // the password field is wrong: the server refuses.
        var withUser = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)
        withUser?.user = "jane"
        withUser?.password = "url-secret-Zq9"
        try rclone.addWebDAV("dav", url: try #require(withUser?.url))
        try rclone.run(["config", "update", "dav", "user=jane", "pass=config-secret-Xy7"])
        let environment = Fixtures.isolatedEnvironment(under: root).merging(rclone.environment) { $1 }
        let result = try ProcessRunner.bibread(["sync", "rclone:dav:"], environment: environment)
        #expect(result.status != 0)
        let said = result.standardError
        #expect(said.contains("rclone"), "\(said)")
        for secret in ["url-secret-Zq9", "config-secret-Xy7", "right-password"] {
            #expect(!said.contains(secret), "\(said)")
        }
        #expect(!said.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } && !said.contains("\u{1B}"))
        #expect(said.split(separator: "\n").allSatisfy { $0.count < 400 }, "\(said)")
    }

    /// A sync through rclone interrupted by Ctrl-C while a 3 MB PDF comes slowly (rclone's
    /// webdav backend on the fault server, 200 kB/s): what arrived stays in its `.part` (moved
    /// there from rclone's staging folder, which goes), and the next sync fetches only the rest.
    @Test func anInterruptedDownloadResumesFromItsPart() throws {
        let sandbox = try SyncSandbox()
        try sandbox.addBigPDF(bytes: 3_000_000)
        // A second PDF wanted too, so that the fresh files go through one rclone copy together.
        try sandbox.appendEntry("@misc{second, title = {Second}, wanted = {yes}, file = {:papers/tex-tour.pdf:PDF}}")
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.slow(bytesPerSecond: 200_000), for: "papers/big.pdf")
        let rclone = try RcloneConfig(in: sandbox.root.appendingPathComponent("rclone"))
        try rclone.addWebDAV("dav", url: server.baseURL)
        sandbox.environment.merge(rclone.environment) { $1 }
        let cache = sandbox.cache("lab")
        let interrupted = try sandbox.interruptedSync(
            ["rclone:dav:", "--name", "lab", "--field", "wanted"], once: "100 kB of papers/big.pdf arrived") {
            // In rclone's staging folder while it comes.
            sandbox.files(under: cache).filter { $0.hasSuffix("/big.pdf") || $0.hasSuffix("/big.pdf.part") }
                .contains { (sandbox.size(cache.appendingPathComponent($0)) ?? 0) >= 100_000 }
        }
        #expect(interrupted.status == 130, "\(interrupted.output)")
        let left = sandbox.files(under: cache)
        #expect(!left.contains { $0.contains(".bibread-rclone") }, "rclone's staging folder was left: \(left)")
        let part = cache.appendingPathComponent("papers/big.pdf.part")
        let kept = try #require(sandbox.size(part), "no .part after the interrupt: \(left)")
        #expect(kept >= 100_000 && kept < 3_000_000)
        var remaining = 3_000_000 - Int(kept)
        if let secondPart = sandbox.size(cache.appendingPathComponent("papers/tex-tour.pdf.part")) {
            remaining += Int(sandbox.size(sandbox.remote.appendingPathComponent("papers/tex-tour.pdf")) ?? 0) - Int(secondPart)
        }
        try server.clearFaults()
        let resumed = try sandbox.bibread(["sync", "lab", "--field", "wanted", "--json"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let finished = try #require(SyncSandbox.events(resumed).last { $0["event"] as? String == "finished" })
        #expect(finished["downloadedBytes"] as? Int == remaining, "\(finished)")
        for pdf in ["papers/big.pdf", "papers/tex-tour.pdf"] {
            #expect(try Data(contentsOf: cache.appendingPathComponent(pdf)) == Data(contentsOf: sandbox.remote.appendingPathComponent(pdf)))
        }
    }
}
