import BibreadTestSupport
import Foundation
import Testing

/// A synced library in the full-screen reader: a PDF only the remote has downloads when opened.
@Suite("Synced library, end to end (tmux)")
struct SyncEndToEndTests {
    @Test("After syncing only the .bib, Enter on a reference downloads its PDF, shows progress, then opens it")
    func openingARemoteOnlyPDFDownloadsIt() async throws {
        let remoteRoot = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: remoteRoot) }
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("library.bib"), to: remoteRoot.appendingPathComponent("library.bib"))
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers"), to: remoteRoot.appendingPathComponent("papers"))
        let server = try WebDAVServer.start(root: remoteRoot)
        defer { server.stop() }
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { sandbox in
            // The sandbox's XDG folders; sync the .bib alone first, in the same environment.
            let cache = sandbox.root.appendingPathComponent("cache").path
            let data = sandbox.root.appendingPathComponent("data").path
            let script = "'\(ProcessRunner.bibreadExecutable.path)' sync '\(server.baseURL.absoluteString)' --name remote >/dev/null 2>&1 && exec '\(ProcessRunner.bibreadExecutable.path)' remote"
            return sandbox.environment(["XDG_CACHE_HOME": cache, "XDG_DATA_HOME": data]) + ["/bin/sh", "-c", script]
        }) { tmux, sandbox in
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
            try await tmux.waitFor("Synced 'remote': 0 downloaded", "the library was read again")
            // Any key clears the message; the status line counts the new reference.
            try await tmux.sendKeys("j")
            try await tmux.waitFor("1 of 26")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
