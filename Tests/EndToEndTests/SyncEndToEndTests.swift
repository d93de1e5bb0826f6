import BibreadTestSupport
import Foundation
import Testing

/// A synced library in the full-screen reader: a PDF only the remote has downloads when opened.
@Suite("Synced library, end to end (tmux)", .onOwnThreads)
struct SyncEndToEndTests {
    @Test("After syncing only the .bib, Enter on a reference downloads its PDF, shows progress, then opens it")
    func openingARemoteOnlyPDFDownloadsIt() async throws {
        let helper = ReaderEndToEndTests()
        try await withSyncedSamples(helper) { tmux, sandbox, remoteRoot in
            try await tmux.waitFor("25 of 25")
            try await tmux.sendKeys("/")
            try await tmux.type("key:knuth1984texbook")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("1 of 25", "remote only")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("p. i (1 of 5)")
            let cached = sandbox.root.appendingPathComponent("cache/bibread/remote/papers/tex-tour.pdf")
            #expect(FileManager.default.fileExists(atPath: cached.path))
            try await tmux.sendKeys("q")
            try await tmux.waitFor("cached")
            // F5 syncs in the background: All downloads no PDF, and a .bib changed on the
            // remote is read again in place.
            let handle = try FileHandle(forWritingTo: remoteRoot.appendingPathComponent("library.bib"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n@misc{added2026, title = {Added on the remote}, year = 2026}\n".utf8))
            try handle.close()
            try await tmux.sendKeys("F5")
            // It says why no PDF was chosen.
            try await tmux.waitFor("Synced 'remote', no PDFs: All is not a synced group (pick one, or sync remote --all-pdfs)",
                                   "the library was read again")
            // Any key clears the message; the status line counts the new reference.
            try await tmux.sendKeys("j")
            try await tmux.waitFor("1 of 26")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("F5 on a group whose PDFs fail says the first reason and the command that shows them all")
    func aFailedF5SaysWhy() async throws {
        let helper = ReaderEndToEndTests()
        try await withSyncedSamples(helper, width: 220) { tmux, sandbox, remoteRoot in
            // Nothing can be put in place: a folder stands where each PDF goes.
            let papers = sandbox.root.appendingPathComponent("cache/bibread/remote/papers")
            for name in try FileManager.default.contentsOfDirectory(atPath: remoteRoot.appendingPathComponent("papers").path) where name.hasSuffix(".pdf") {
                try FileManager.default.createDirectory(at: papers.appendingPathComponent(name), withIntermediateDirectories: true)
            }
            try await tmux.showGroup("Typesetting")
            try await tmux.sendKeys("F5")
            let failed = try await tmux.waitFor("failed, first papers/", "cannot put it in place")
            #expect(failed.contains("(all: bibread sync remote --group 'Typesetting')"), "\(failed)")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("After sync --all-pdfs, a reference whose PDF the remote lacks is Without PDF, not marked remote only")
    func aPDFTheRemoteLacksIsNotRemoteOnly() async throws {
        let helper = ReaderEndToEndTests()
        try await withSyncedSamples(helper, width: 160, syncing: ["--all-pdfs"]) { tmux, _, _ in
            try await tmux.waitFor("25 of 25")
            // papers/missing.pdf, Turing's only PDF, is linked but not on the remote.
            let screen = Screen(try await tmux.waitUntil("the groups counted") { Screen($0).groupCount("Without PDF") != nil })
            #expect(screen.groupCount("Without PDF") == 20, "\(screen.groupRows)")
            #expect(screen.groupCount("On the remote only") ?? 0 == 0, "\(screen.groupRows)")
            let turing = try #require(screen.rows.first { $0.contains("Turing") }, "\(screen.rows)")
            #expect(!turing.contains("○"), "\(turing)")
            #expect(screen.rows.contains { $0.contains("Knuth") && $0.contains("●") }, "a downloaded PDF is marked")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("F5 while a sync of the same remote runs in a shell: the status line says whom it waits for, Esc stops waiting, and it goes on once the other ends")
    func f5WaitsForAnotherSyncOfTheRemote() async throws {
        let helper = ReaderEndToEndTests()
        // A 6 MB PDF served at 30 kB/s: the sync in the shell holds the remote until the test
        // interrupts it, however slowly the test runs.
        try await withSyncedSamples(helper, width: 160, bigFile: 6_000_000, kilobytesPerSecond: 30) { tmux, sandbox, _ in
            try await tmux.waitFor("26 of 26")
            let cache = sandbox.root.appendingPathComponent("cache")
            let data = sandbox.root.appendingPathComponent("data")
            let shell = Process()
            shell.executableURL = ProcessRunner.bibreadExecutable
            shell.arguments = ["sync", "remote", "--all-pdfs"]
            shell.environment = ["HOME": sandbox.home.path, "XDG_CONFIG_HOME": sandbox.config.path, "XDG_STATE_HOME": sandbox.state.path,
                                 "XDG_CACHE_HOME": cache.path, "XDG_DATA_HOME": data.path]
            let errors = sandbox.root.appendingPathComponent("shell-sync.err")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            shell.standardOutput = FileHandle.nullDevice
            shell.standardError = try FileHandle(forWritingTo: errors)
            try shell.run()
            defer { if shell.isRunning { kill(shell.processIdentifier, SIGKILL) } }
            // It holds the remote once it wrote itself into the lock file.
            let lock = data.appendingPathComponent("bibread/remotes/remote/.bibread-sync.lock").path
            while shell.isRunning && (try? String(contentsOfFile: lock, encoding: .utf8))?.hasPrefix("\(shell.processIdentifier)\n") != true {
                try await Task.sleep(for: .milliseconds(10))
            }
            try #require(shell.isRunning, "the sync in the shell ended before the test could press F5: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")

            let waiting = "Another sync of 'remote' is running (pid \(shell.processIdentifier): bibread sync remote --all-pdfs); waiting…"
            try await tmux.sendKeys("F5")
            try await tmux.waitFor(waiting, "Esc stops waiting")
            // The reader is not frozen: Esc stops waiting at once.
            try await tmux.sendKeys("Escape")
            try await tmux.waitFor("Stopped waiting for the other sync of 'remote'; nothing was changed")
            try await tmux.sendKeys("F5")
            try await tmux.waitFor(waiting)
            // Once the other sync has ended (Ctrl-C in its shell), this one runs.
            kill(shell.processIdentifier, SIGINT)
            try await tmux.waitFor("Synced 'remote', no PDFs: All is not a synced group")
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 130, "\((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }

    /// The sample library served over WebDAV and synced (the .bib alone, or with the PDFs that
    /// `syncing` chooses) as the remote `remote`, then opened in the reader, in the sandbox's
    /// XDG folders. With `bigFile`, the remote also has `papers/big.pdf` of that many bytes,
    /// linked by one more reference; with `kilobytesPerSecond`, the server sends no faster.
    private func withSyncedSamples(_ helper: ReaderEndToEndTests, width: Int = 120, syncing: [String] = [],
                                   bigFile: Int? = nil, kilobytesPerSecond: Int? = nil,
                                   _ body: (Tmux, Sandbox, URL) async throws -> Void) async throws {
        let remoteRoot = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: remoteRoot) }
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("library.bib"), to: remoteRoot.appendingPathComponent("library.bib"))
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers"), to: remoteRoot.appendingPathComponent("papers"))
        if let bigFile {
            try (Data("%PDF-1.4\n".utf8) + Data(repeating: 0x42, count: bigFile)).write(to: remoteRoot.appendingPathComponent("papers/big.pdf"))
            let handle = try FileHandle(forWritingTo: remoteRoot.appendingPathComponent("library.bib"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("\n@misc{big2026, title = {A large file}, file = {:papers/big.pdf:PDF}}\n".utf8))
            try handle.close()
        }
        let server = try WebDAVServer.start(root: remoteRoot, kilobytesPerSecond: kilobytesPerSecond)
        defer { server.stop() }
        try await helper.withSession(width: width, command: { sandbox in
            // The sandbox's XDG folders; sync the .bib alone first, in the same environment.
            let cache = sandbox.root.appendingPathComponent("cache").path
            let data = sandbox.root.appendingPathComponent("data").path
            // These tests sync with F5 alone (the reader's own syncs have BackgroundSyncEndToEndTests).
            try? FileManager.default.createDirectory(at: sandbox.config.appendingPathComponent("bibread"), withIntermediateDirectories: true)
            try? "sync_on_open = false\n".write(to: sandbox.config.appendingPathComponent("bibread/config.toml"), atomically: true, encoding: .utf8)
            let script = "'\(ProcessRunner.bibreadExecutable.path)' sync '\(server.baseURL.absoluteString)' --name remote\(syncing.map { " " + $0 }.joined()) >/dev/null 2>&1 && exec '\(ProcessRunner.bibreadExecutable.path)' remote"
            return sandbox.environment(["XDG_CACHE_HOME": cache, "XDG_DATA_HOME": data]) + ["/bin/sh", "-c", script]
        }) { tmux, sandbox in
            try await body(tmux, sandbox, remoteRoot)
        }
    }
}

extension Tmux {
    /// Shows the group `name` of the samples (once all 25 are listed): to the groups pane, up
    /// to All, down to it, Enter.
    func showGroup(_ name: String) async throws {
        // The list can show its 25 a frame before the groups pane has its rows (seen in CI).
        let screen = Screen(try await waitUntil("25 of 25, and the group \(name) in the groups pane") { text in
            let screen = Screen(text)
            return text.contains("25 of 25") && screen.groupIndex(name) != nil && screen.groupIndex("All") != nil
        })
        let index = try #require(screen.groupIndex(name))
        let all = try #require(screen.groupIndex("All"))
        try await sendKeys("Tab")
        try await sendKeys("Tab")
        try await sendKeys("g")
        for _ in all..<index { try await sendKeys("j") }
        try await sendKeys("Enter")
        try await waitUntil("the group \(name)") { Screen($0).statusLine.contains("· \(name)") }
    }
}
