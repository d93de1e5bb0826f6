import BibreadTestSupport
import Foundation
import ReadingStateSync
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The reading state on every machine (issue 29): machines with XDG folders of their own share
/// positions, bookmarks and notes through a real remote (lighttpd's WebDAV, the real sshd's
/// SFTP), with the real `bibread` and, for reading, the reader in tmux.
@Suite("Reading state shared through a remote (lighttpd, sshd, tmux)", .onOwnThreads)
struct SharedStateEndToEndTests {
    enum Kind: String, CaseIterable, Sendable { case webdav, sftp }

    /// A remote holding one library whose reference `long300` links a 300-page PDF.
    final class SharedRemote: @unchecked Sendable {
        let root: URL
        let folder: URL
        let toml: String
        private let stop: () -> Void

        init(_ kind: Kind) throws {
            folder = try Fixtures.temporaryDirectory()
            root = folder.appendingPathComponent("remote")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("papers"), withIntermediateDirectories: true)
            try LabelledPDF.write(pageCount: 300, ranges: [], to: root.appendingPathComponent("papers/long300.pdf"))
            try Data("""
                @book{long300,
                  author = {Writer, Ada},
                  title = {A Long Book},
                  year = {2020},
                  file = {:papers/long300.pdf:PDF}
                }

                """.utf8).write(to: root.appendingPathComponent("library.bib"))
            switch kind {
            case .webdav:
                let server = try WebDAVServer.start(root: root, writable: true)
                toml = "url = \"\(server.baseURL.absoluteString)\"\n"
                stop = { server.stop() }
            case .sftp:
                let server = try SFTPServer.start(root: root)
                toml = """
                    url = "\(server.url.absoluteString)"
                    ssh_key = "\(server.privateKeyPath)"
                    known_hosts = "\(server.knownHostsPath)"

                    """
                stop = { server.stop() }
            }
        }

        deinit {
            stop()
            try? FileManager.default.removeItem(at: folder)
        }

        var stateFolder: URL { root.appendingPathComponent(".bibread/state") }

        /// The names in the state folder.
        func stateFiles() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: stateFolder.path)) ?? []).sorted()
        }

        /// Every file named as a log that does not read whole, or holds another machine's
        /// operations, with why.
        func damagedLogs() -> [String] {
            stateFiles().filter { $0.hasSuffix(".jsonl") }.compactMap { name in
                guard let data = FileManager.default.contents(atPath: stateFolder.appendingPathComponent(name).path) else { return "\(name): unreadable" }
                do {
                    let operations = try StateLog.decode(data)
                    let machine = String(name.prefix { $0 != "-" })
                    if let stranger = operations.first(where: { $0.machine.rawValue != machine }) {
                        return "\(name): holds an operation of \(stranger.machine)"
                    }
                    return nil
                } catch {
                    return "\(name): \(error)"
                }
            }
        }
    }

    /// A machine: XDG folders of its own (removed with it) and a config.toml that names it and
    /// the remote `lab`.
    final class Machine: Sendable {
        let sandbox: Sandbox
        let name: String
        let environment: [String: String]

        init(_ name: String, remote: SharedRemote, clockOffsetSeconds: Int? = nil) throws {
            sandbox = try Sandbox()
            self.name = name
            var environment = [
                "XDG_STATE_HOME": sandbox.state.path, "XDG_CONFIG_HOME": sandbox.config.path, "HOME": sandbox.home.path,
                "XDG_DATA_HOME": sandbox.root.appendingPathComponent("data").path,
                "XDG_CACHE_HOME": sandbox.root.appendingPathComponent("cache").path,
            ]
            if let clockOffsetSeconds { environment["BIBREAD_TEST_CLOCK_OFFSET"] = String(clockOffsetSeconds) }
            self.environment = environment
            try FileManager.default.createDirectory(at: sandbox.config.appendingPathComponent("bibread"), withIntermediateDirectories: true)
            try Data("""
                device_name = "\(name)"
                sync_on_open = false

                [[remote]]
                name = "lab"
                \(remote.toml)
                """.utf8).write(to: sandbox.config.appendingPathComponent("bibread/config.toml"))
        }

        deinit { sandbox.remove() }

        /// Runs `bibread` as this machine.
        func run(_ arguments: [String]) async throws -> ToolResult {
            try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, arguments,
                                     environment: environment.mapValues { Optional($0) }.merging(["COLUMNS": nil]) { $1 },
                                     timeout: .seconds(120))
        }

        /// `bibread sync lab --all-pdfs`, which must succeed; returns what it said.
        @discardableResult
        func sync() async throws -> String {
            let result = try await run(["sync", "lab", "--all-pdfs"])
            try #require(result.status == 0, "\(name): sync failed (\(result.status)): \(result.standardError)")
            return result.standardError + result.output
        }

        /// The bookmark tree as `bibread bookmarks list` prints it.
        func bookmarks() async throws -> String {
            let result = try await run(["bookmarks", "list"])
            try #require(result.status == 0, "\(name): \(result.standardError)")
            return result.output
        }
    }

    @Test("A reads to p. 250 in the reader and syncs; B syncs and read --resume gives p. 250, read on A", arguments: Kind.allCases)
    func aPositionTravels(kind: Kind) async throws {
        let remote = try SharedRemote(kind)
        let laptop = try Machine("laptop", remote: remote)
        let desktop = try Machine("desktop", remote: remote)
        try await laptop.sync()
        let tmux = try await Tmux.start(width: 100, height: 30, command: laptop.sandbox.bibread(["open", "long300:250", "--library", "lab"],
                                                                                                environment: laptop.environment), in: laptop.sandbox)
        do {
            try await tmux.waitFor("p. 250 / 300")
            try await tmux.sendKeys("q")
            try await tmux.sendKeys("q")
            #expect(try await tmux.waitForExit() == 0)
        } catch {
            await tmux.kill()
            throw error
        }
        let shared = try await laptop.sync()
        #expect(shared.contains("reading state:") && shared.contains("of this machine's shared"), "\(shared)")
        try await desktop.sync()
        let read = try await desktop.run(["read", "lab", "long300", "--resume"])
        #expect(read.status == 0, "\(read.standardError)")
        #expect(read.standardError.contains("resumed at p. 250 (read on laptop just now)"), "\(read.standardError)")
        #expect(read.output.contains("Page 250 of the file"), "\(read.output.prefix(300))")
        // Nothing new: one listing of the state folder, nothing downloaded, nothing uploaded.
        let again = try await desktop.sync()
        #expect(!again.contains("reading state:"), "\(again)")
    }

    @Test("A and B bookmark offline, then sync in either order: the same tree on both, nothing lost", arguments: Kind.allCases)
    func offlineBookmarksMerge(kind: Kind) async throws {
        for laptopFirst in [true, false] {
            let remote = try SharedRemote(kind)
            let laptop = try Machine("laptop", remote: remote)
            let desktop = try Machine("desktop", remote: remote)
            try await laptop.sync()
            try await desktop.sync()
            for (machine, pages) in [(laptop, [10, 11]), (desktop, [20, 21])] {
                for page in pages {
                    let added = try await machine.run(["bookmarks", "add", "long300:#\(page)", "--folder", "Course/Week 1",
                                                       "--name", "\(machine.name) p. \(page)"])
                    try #require(added.status == 0, "\(added.standardError)")
                }
            }
            let order = laptopFirst ? [laptop, desktop, laptop] : [desktop, laptop, desktop]
            for machine in order { try await machine.sync() }
            let onLaptop = try await laptop.bookmarks()
            let onDesktop = try await desktop.bookmarks()
            #expect(onLaptop == onDesktop, "laptop first: \(laptopFirst)\n\(onLaptop)\n---\n\(onDesktop)")
            for label in ["laptop p. 10", "laptop p. 11", "desktop p. 20", "desktop p. 21"] {
                #expect(onLaptop.contains(label), "\(label) lost (laptop first: \(laptopFirst)):\n\(onLaptop)")
            }
            #expect(onLaptop.components(separatedBy: "Week 1").count == 2, "one folder Week 1:\n\(onLaptop)")
        }
    }

    @Test("B's clock 2 hours behind: a bookmark B adds after seeing A's still comes after it, and none is lost")
    func clockSkew() async throws {
        let remote = try SharedRemote(.webdav)
        let laptop = try Machine("laptop", remote: remote)
        let server = try Machine("server", remote: remote, clockOffsetSeconds: -7_200)
        try await laptop.sync()
        _ = try await laptop.run(["bookmarks", "add", "long300:#1", "--folder", "Skew", "--name", "first, on the laptop"])
        try await laptop.sync()
        try await server.sync()
        _ = try await server.run(["bookmarks", "add", "long300:#2", "--folder", "Skew", "--name", "second, on the server"])
        try await server.sync()
        try await laptop.sync()
        for machine in [laptop, server] {
            let tree = try await machine.bookmarks()
            let first = try #require(tree.range(of: "first, on the laptop"), "\(machine.name):\n\(tree)")
            let second = try #require(tree.range(of: "second, on the server"), "\(machine.name):\n\(tree)")
            #expect(first.lowerBound < second.lowerBound, "\(machine.name): the later bookmark is not after the earlier one:\n\(tree)")
        }
    }

    @Test("kill -9 during log uploads, 30 times: no log on the remote is ever half-written, and the next sync completes",
          arguments: Kind.allCases)
    func killedUploads(kind: Kind) async throws {
        let rounds = (ProcessInfo.processInfo.environment["BIBREAD_KILL_ROUNDS"].flatMap(Int.init) ?? 30) / Kind.allCases.count
        var random = SeededGenerator.forTest("killedUploads-\(kind.rawValue)")
        let remote = try SharedRemote(kind)
        let laptop = try Machine("laptop", remote: remote)
        let desktop = try Machine("desktop", remote: remote)
        try await laptop.sync()
        let list = laptop.sandbox.root.appendingPathComponent("list.plist")
        // How long a sync that uploads a large log takes here.
        try Self.writeList(round: 0, to: list)
        #expect(try await laptop.run(["bookmarks", "import", list.path]).status == 0)
        let started = Date()
        try await laptop.sync()
        let duration = Date().timeIntervalSince(started)
        var damaged: [String] = []
        var killedWhileAFileWasBeingWritten = 0
        for round in 1...rounds {
            try Self.writeList(round: round, to: list)
            let imported = try await laptop.run(["bookmarks", "import", list.path])
            try #require(imported.status == 0, "\(imported.standardError)")
            let before = Set(remote.stateFiles())
            let process = try BackgroundProcess(ProcessRunner.bibreadExecutable, ["sync", "lab"], environment: laptop.environment)
            if round % 2 == 0 {
                // As soon as the state folder changes (a temporary file of the upload appears).
                let deadline = Date().addingTimeInterval(duration * 3 + 5)
                while Set(remote.stateFiles()) == before && !process.hasEnded && Date() < deadline { usleep(300) }
                if Set(remote.stateFiles()).subtracting(before).contains(where: { !$0.hasSuffix(".jsonl") }) {
                    killedWhileAFileWasBeingWritten += 1
                }
            } else {
                usleep(UInt32(Double.random(in: 0...(duration * 1.1), using: &random.generator) * 1_000_000))
            }
            process.killWithDescendants()
            damaged += remote.damagedLogs().map { "round \(round): \($0)" }
        }
        #expect(damaged.isEmpty, "\(damaged.joined(separator: "\n"))")
        try await laptop.sync()
        try await desktop.sync()
        let onLaptop = try await laptop.bookmarks()
        #expect(onLaptop == (try await desktop.bookmarks()))
        for round in 0...rounds {
            #expect(onLaptop.contains("Round \(round) list"), "round \(round)'s list lost:\n\(onLaptop.prefix(2_000))")
        }
        #expect(remote.damagedLogs().isEmpty)
        print("kill -9 during log uploads over \(kind): \(rounds) rounds, \(killedWhileAFileWasBeingWritten) killed while the upload's temporary file was there")
    }

    @Test("A hostile or corrupt log on the remote is refused with its line, and the state here is untouched")
    func hostileLogs() async throws {
        let remote = try SharedRemote(.webdav)
        let laptop = try Machine("laptop", remote: remote)
        _ = try await laptop.run(["bookmarks", "add", "long300:#5", "--name", "mine"])
        try await laptop.sync()
        let before = try await laptop.bookmarks()
        let stranger = "0123456789abcdef0123456789abcdef"
        let stamp = "\(Int64(Date().timeIntervalSince1970 * 1000)).0@\(stranger)"
        let good = #"{"change":{"addNode":{"id":"n1","kind":"folder","name":"from the stranger","position":"a"}},"timestamp":"\#(stamp)"}"#
        let cases: [(name: String, contents: Data, says: String)] = [
            ("truncated", Data((good + "\n" + good.prefix(40)).utf8), "line 2: the line is cut short"),
            ("garbage", Data("\u{1B}[2J not json at all\n".utf8), "line 1: not valid JSON"),
            ("huge", Data(repeating: UInt8(ascii: "x"), count: StateLog.maximumLineBytes + 10) + Data("\n".utf8), "line 1: the line is"),
            ("another machine's", Data((good.replacingOccurrences(of: stranger, with: "ffffffffffffffffffffffffffffffff") + "\n").utf8),
             "not of \(stranger)"),
            ("far ahead", Data((good.replacingOccurrences(of: stamp, with: "\(Int64(Date().timeIntervalSince1970 * 1000) + 3 * 86_400_000).0@\(stranger)") + "\n").utf8),
             "ahead of this machine's clock"),
        ]
        for (index, hostile) in cases.enumerated() {
            let name = "\(stranger)-\(String(format: "%08d", index + 1)).jsonl"
            try hostile.contents.write(to: remote.stateFolder.appendingPathComponent(name))
            let result = try await laptop.run(["sync", "lab"])
            #expect(result.status == 0, "\(hostile.name): \(result.standardError)")
            #expect(result.standardError.contains(name) && result.standardError.contains(hostile.says)
                    && result.standardError.contains("its changes were not merged"), "\(hostile.name): \(result.standardError)")
            #expect(!result.standardError.contains("\u{1B}"), "an escape from the log reached the terminal")
            #expect(try await laptop.bookmarks() == before, "\(hostile.name): the state here changed")
            try FileManager.default.removeItem(at: remote.stateFolder.appendingPathComponent(name))
        }
        // Operations for bookmarks no machine added change nothing.
        let orphan = #"{"change":{"renameNode":{"id":"nosuchnode","name":"renamed"}},"timestamp":"\#(stamp)"}"#
        try Data((orphan + "\n").utf8).write(to: remote.stateFolder.appendingPathComponent("\(stranger)-00000009.jsonl"))
        #expect(try await laptop.run(["sync", "lab"]).status == 0)
        let after = try await laptop.bookmarks()
        #expect(after == before, "\(before)\n---\n\(after)")
    }

    @Test("state status names every machine; state forget drops one and keeps what it made")
    func statusAndForget() async throws {
        let remote = try SharedRemote(.webdav)
        let laptop = try Machine("laptop", remote: remote)
        let lost = try Machine("old-laptop", remote: remote)
        _ = try await lost.run(["bookmarks", "add", "long300:#7", "--name", "made on the lost laptop"])
        try await lost.sync()
        try await laptop.sync()
        let status = try await laptop.run(["state", "status"])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.output.contains("laptop") && status.output.contains("(this machine)"), "\(status.output)")
        #expect(status.output.contains("old-laptop") && status.output.contains("1 file"), "\(status.output)")
        let unknown = try await laptop.run(["state", "forget", "nobody"])
        #expect(unknown.status == 64 && unknown.standardError.contains("no machine is named 'nobody'"), "\(unknown.standardError)")
        let forgot = try await laptop.run(["state", "forget", "old-laptop"])
        #expect(forgot.status == 0, "\(forgot.standardError)")
        #expect(forgot.output.contains("Forgot old-laptop"), "\(forgot.output)")
        #expect(!remote.stateFiles().contains { $0.hasPrefix(String(lost.machineID(remote: remote) ?? "?")) && $0.hasSuffix(".jsonl") })
        #expect(try await laptop.bookmarks().contains("made on the lost laptop"))
        // A third machine that joins later still gets the bookmark (shared by the laptop now).
        let third = try Machine("desktop", remote: remote)
        try await third.sync()
        #expect(try await third.bookmarks().contains("made on the lost laptop"))
        let after = try await laptop.run(["state", "status"])
        #expect(after.output.contains("forgotten"), "\(after.output)")
        // The forgotten machine is told, and shares nothing more.
        let told = try await lost.sync()
        #expect(told.contains("this machine was forgotten"), "\(told)")
    }

    /// A reading list of 400 bookmarks, each named for its round, as the export writes it.
    static func writeList(round: Int, to url: URL) throws {
        let bookmarks = (1...400).map { index in
            """
            <dict><key>Class</key><string>Bookmark</string><key>Name</key><string>Round \(round) list, bookmark \(index) \(String(repeating: "·", count: 40))</string>\
            <key>Reference</key><dict><key>Class</key><string>Reference</string><key>CiteKey</key><string>long300</string>\
            <key>Page</key><integer>\(1 + index % 300)</integer></dict></dict>
            """
        }.joined()
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>Class</key><string>Folder</string><key>Name</key><string>Round \(round)</string>\
            <key>Children</key><array>\(bookmarks)</array></dict></plist>

            """.utf8).write(to: url)
    }
}

extension SharedStateEndToEndTests.Machine {
    /// This machine's id, from its state folder.
    func machineID(remote: SharedStateEndToEndTests.SharedRemote) -> String? {
        (try? String(contentsOf: sandbox.state.appendingPathComponent("bibread/machine-id"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
