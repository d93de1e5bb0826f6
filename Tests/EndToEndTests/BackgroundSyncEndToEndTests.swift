import BibreadTestSupport
import Foundation
import Testing

/// The reader's syncs of its own (on opening a synced library, every `sync_every`), and quitting
/// during a sync: finish it in the background, or stop it (issue 30).
@Suite("Sync that keeps going, end to end (tmux)", .onOwnThreads)
struct BackgroundSyncEndToEndTests {
    /// A remote served over WebDAV (the samples), synced once by URL as `remote` (the .bib
    /// alone), and the sandbox the reader runs in, with `config` as its config.toml.
    private struct SyncedRemote {
        let root: URL
        let server: WebDAVServer
        let sandbox: Sandbox

        init(config: String, kilobytesPerSecond: Int?) throws {
            root = try Fixtures.temporaryDirectory()
            try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("library.bib"), to: root.appendingPathComponent("library.bib"))
            try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers"), to: root.appendingPathComponent("papers"))
            server = try WebDAVServer.start(root: root, kilobytesPerSecond: kilobytesPerSecond)
            sandbox = try Sandbox()
            try FileManager.default.createDirectory(at: sandbox.config.appendingPathComponent("bibread"), withIntermediateDirectories: true)
            try config.write(to: sandbox.config.appendingPathComponent("bibread/config.toml"), atomically: true, encoding: .utf8)
            let first = try ProcessRunner.bibread(["sync", server.baseURL.absoluteString, "--name", "remote"], environment: environment)
            guard first.status == 0 else { throw EndToEndFailure("the first sync failed: \(first.standardError)") }
        }

        func remove() {
            server.stop()
            sandbox.remove()
            try? FileManager.default.removeItem(at: root)
        }

        var cache: URL { sandbox.root.appendingPathComponent("cache") }
        var data: URL { sandbox.root.appendingPathComponent("data") }
        var environment: [String: String] {
            ["HOME": sandbox.home.path, "XDG_CONFIG_HOME": sandbox.config.path, "XDG_STATE_HOME": sandbox.state.path,
             "XDG_CACHE_HOME": cache.path, "XDG_DATA_HOME": data.path]
        }

        /// `bibread remote` in a tmux pane.
        func openReader(width: Int = 160) async throws -> Tmux {
            try await Tmux.start(width: width, height: 40,
                                 command: sandbox.bibread(["remote"], environment: ["XDG_CACHE_HOME": cache.path, "XDG_DATA_HOME": data.path]),
                                 in: sandbox)
        }

        /// Adds text to the remote's library.bib (another machine's change).
        func append(_ text: String) throws {
            let handle = try FileHandle(forWritingTo: root.appendingPathComponent("library.bib"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(("\n" + text + "\n").utf8))
            try handle.close()
        }

        /// The sync lock's holder (its pid), when a live process holds it.
        var lockHolder: Int32? {
            let lock = data.appendingPathComponent("bibread/remotes/remote/.bibread-sync.lock").path
            guard let text = try? String(contentsOfFile: lock, encoding: .utf8),
                  let pid = text.split(separator: "\n").first.flatMap({ Int32($0) }), kill(pid, 0) == 0 else { return nil }
            return pid
        }
    }

    /// The session id of process `pid` (/proc/PID/stat's sixth field).
    private static func session(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 3 ? Int32(fields[3]) : nil
    }

    private static func commandLine(of pid: Int32) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Opens the reader, syncs the group Typesetting with F5 (slowly) and presses q during the
    /// sync: the question is on screen.
    private func quitDuringASync(_ remote: SyncedRemote) async throws -> Tmux {
        let tmux = try await remote.openReader()
        do {
            try await tmux.showGroup("Typesetting")
            try await tmux.sendKeys("F5")
            try await tmux.waitUntil("the sync's progress", settled: false) { Screen($0).statusLine.contains("Syncing") && $0.contains(".pdf") }
            try await tmux.sendKeys("q")
            try await tmux.waitShowing("A sync of 'remote' is running: finish it in the background? (y/n)")
        } catch {
            await tmux.kill()
            throw error
        }
        return tmux
    }

    @Test("Opening a synced library syncs it in the background with progress on the status line, keys are answered meanwhile, and sync_every syncs again")
    func openingSyncsInTheBackgroundAndAgainEveryInterval() async throws {
        let remote = try SyncedRemote(config: "sync_every = \"4s\"\n", kilobytesPerSecond: 10)
        defer { remote.remove() }
        // Another machine changed the .bib, by 300 kB: at 10 kB/s its download takes half a minute.
        try remote.append("@comment{" + String(repeating: "padding line of another machine's export\n", count: 7_500) + "}")
        try remote.append("@misc{added2026, title = {Added on the remote}, year = 2026}")
        let tmux = try await remote.openReader()
        do {
            // The status lines seen, for the message when the progress is never seen.
            var seen: [String] = []
            do {
                try await tmux.waitUntil("the sync's progress on the status line", settled: false) {
                    let status = Screen($0).statusLine.trimmingCharacters(in: .whitespaces)
                    if seen.last != status { seen.append(status) }
                    return status.hasPrefix("Syncing 'remote' in the background… · Esc stops it") || status.hasPrefix("Syncing ")
                }
            } catch {
                throw EndToEndFailure("\(error)\nthe status lines seen, in order: \(seen)")
            }
            // The screen answers keys during the sync: the help opens and closes at once.
            try await tmux.sendKeys("?")
            try await tmux.waitFor("Help — any other key closes", timeout: .seconds(2))
            try await tmux.sendKeys("Escape")
            try await tmux.waitUntil("the help to close", timeout: .seconds(2)) { !$0.contains("Help — any other key closes") }
            #expect(Screen(try await tmux.capture()).statusLine.contains("Syncing"), "the sync was still running")
            try await tmux.waitFor("Synced 'remote' in the background", "the library was read again", timeout: .seconds(120))
            // A key clears the message; the new reference is in the list.
            try await tmux.sendKeys("j")
            try await tmux.waitFor("26 of 26")
            // sync_every: the remote changes again (its export is small now), and a later sync
            // brings it without a key.
            var library = try String(contentsOf: Fixtures.samples.appendingPathComponent("library.bib"), encoding: .utf8)
            library += "\n@misc{added2026, title = {Added on the remote}, year = 2026}\n@misc{later2026, title = {Added later}, year = 2026}\n"
            try library.write(to: remote.root.appendingPathComponent("library.bib"), atomically: true, encoding: .utf8)
            try await tmux.waitFor("Synced 'remote' in the background", "the library was read again", timeout: .seconds(60))
            try await tmux.sendKeys("j")
            try await tmux.waitFor("27 of 27")
            try await tmux.sendKeys("q")
            #expect(try await tmux.waitForExit() == 0)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
    }

    @Test("q during a sync asks; y quits at once and a bibread sync in a session of its own finishes it after the terminal is gone; the next start says how it ended")
    func yesLeavesTheSyncToABackgroundProcess() async throws {
        let remote = try SyncedRemote(config: "sync_on_open = false\n", kilobytesPerSecond: 4)
        defer { remote.remove() }
        let tmux = try await quitDuringASync(remote)
        var detached: Int32?
        do {
            try await tmux.sendKeys("y")
            #expect(try await tmux.waitForExit(timeout: .seconds(10)) == 0)
            // The sync goes on in a process of its own session, holding the remote's lock.
            let deadline = Date().addingTimeInterval(TestTiming.seconds(20))
            while detached == nil && Date() < deadline {
                if let holder = remote.lockHolder, Self.commandLine(of: holder).contains("--detached") { detached = holder }
                try await Task.sleep(for: .milliseconds(20))
            }
            let pid = try #require(detached, "no detached sync holds the remote's lock")
            #expect(Self.commandLine(of: pid).suffix(5) == ["sync", "--detached", "remote", "--group", "Typesetting"], "\(Self.commandLine(of: pid))")
            #expect(Self.session(of: pid) == pid, "it leads a session of its own")
        } catch {
            await tmux.kill()
            throw error
        }
        // The terminal closes: the sync does not notice.
        await tmux.kill()
        let log = remote.sandbox.state.appendingPathComponent("bibread/sync-remote.log")
        let outcome = remote.sandbox.state.appendingPathComponent("bibread/sync-remote.outcome")
        let deadline = Date().addingTimeInterval(TestTiming.seconds(60))
        while !FileManager.default.fileExists(atPath: outcome.path) && Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(logText.contains("Done:"), "\(logText)")
        let pdfs = try FileManager.default.contentsOfDirectory(atPath: remote.cache.appendingPathComponent("bibread/remote/papers").path)
        #expect(pdfs.contains("tex-tour.pdf") && pdfs.contains("line-breaking.pdf"), "\(pdfs)\n\(logText)")
        var status = stat()
        #expect(stat(log.path, &status) == 0 && status.st_mode & 0o077 == 0, "the log is the user's alone")

        // The next start reports it, once.
        let again = try await remote.openReader()
        do {
            let screen = try await again.waitFor("The background sync of 'remote' finished:")
            #expect(Screen(screen).statusLine.contains("downloaded"), "\(Screen(screen).statusLine)")
            #expect(!FileManager.default.fileExists(atPath: outcome.path))
            try await again.sendKeys("q")
            #expect(try await again.waitForExit() == 0)
        } catch {
            await again.kill()
            throw error
        }
        await again.kill()
    }

    @Test("q during a sync, then n: the sync stops, the reader quits, and no sync is left running")
    func noStopsTheSyncAndQuits() async throws {
        let remote = try SyncedRemote(config: "sync_on_open = false\n", kilobytesPerSecond: 4)
        defer { remote.remove() }
        let tmux = try await quitDuringASync(remote)
        do {
            // Esc keeps reading, the sync going.
            try await tmux.sendKeys("Escape")
            try await tmux.waitUntil("the question to close", settled: false) { !$0.contains("finish it in the background?") }
            try await tmux.sendKeys("q")
            try await tmux.waitShowing("finish it in the background? (y/n)")
            try await tmux.sendKeys("n")
            #expect(try await tmux.waitForExit(timeout: .seconds(10)) == 0)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
        #expect(remote.lockHolder == nil, "a process still holds the remote: \(remote.lockHolder.map { Self.commandLine(of: $0) } ?? [])")
        #expect(!FileManager.default.fileExists(atPath: remote.sandbox.state.appendingPathComponent("bibread/sync-remote.log").path))
        // The remote is free: a sync that will not wait runs at once.
        let next = try ProcessRunner.bibread(["sync", "remote", "--no-wait"], environment: remote.environment)
        #expect(next.status == 0, "\(next.standardError)")
    }
}

private extension Tmux {
    /// Waits until `text` is on screen, whether or not the screen has stopped changing (a
    /// sync's progress changes it all the time).
    func waitShowing(_ text: String) async throws {
        try await waitUntil("“\(text)”", settled: false) { $0.contains(text) }
    }
}
