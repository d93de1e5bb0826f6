import BibreadTestSupport
import Foundation
import Testing

/// Escape sequences in a .bib file or a server's error page, printed by `list`, `show` and `sync`
/// in a terminal (issue 26, item 7): tmux is the terminal, with `set-clipboard on` so that an
/// OSC 52 would make a paste buffer. Nothing may clear the screen, set the pane's title, fill
/// the clipboard or change the colours; each control character shows as `�`.
@Suite("Control characters in a terminal, end to end (tmux)", .onOwnThreads)
struct TerminalEscapeEndToEndTests {
    /// Runs `commandLine` in a shell in a fresh pane, after a line `BEFORE`; returns the screen
    /// once `END` is printed, with the pane's title and tmux's paste buffers at that moment.
    private func run(_ commandLine: String, environment: [String: String] = [:],
                     prepare: (Sandbox) throws -> Void = { _ in }) async throws -> (screen: String, title: String, buffers: String) {
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        try HostileText.writeLibraries(to: sandbox.home)
        try prepare(sandbox)
        let tmux = try await Tmux.start(width: 200, height: 50, command: sandbox.shell(), in: sandbox)
        do {
            try await tmux.run(["set-option", "-s", "set-clipboard", "on"])
            try await tmux.waitUntil("the shell's prompt") { Tmux.rows(of: $0).contains { $0.hasPrefix("$") } }
            let titleBefore = try await tmux.format("#{pane_title}")
            let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
            let bibread = ProcessRunner.bibreadExecutable.path
            try await tmux.type("echo BEFORE; \(exports.isEmpty ? "" : "env \(exports) ")\(bibread) \(commandLine); echo END")
            try await tmux.sendKeys("Enter")
            let screen = try await tmux.waitUntil("END on a line of its own") { Tmux.rows(of: $0).contains("END") }
            let title = try await tmux.format("#{pane_title}")
            let buffers = try await tmux.run(["list-buffers"])
            let styled = try await tmux.capture(escapes: true)
            await tmux.kill()
            #expect(title == titleBefore, "the pane's title was set: \(title)")
            #expect(buffers.isEmpty, "an OSC 52 filled the clipboard: \(buffers)")
            #expect(Tmux.rows(of: screen).contains("BEFORE"), "the screen was cleared:\n\(screen)")
            #expect(!styled.contains("\u{1B}[31m"), "the colours were changed:\n\(styled)")
            return (screen, title, buffers)
        } catch {
            await tmux.kill()
            throw error
        }
    }

    @Test("list in a terminal shows the marks, in aligned columns")
    func list() async throws {
        let screen = try await run("list evil.bib").screen
        let row = try #require(Tmux.rows(of: screen).first { $0.hasPrefix("evil ") }, "\(screen)")
        #expect(row.contains(HostileText.cleanedTitle), "\(row)")
        #expect(row.contains(HostileText.cleanedJournal), "\(row)")
        // The columns line up: the plain reference's title starts where the hostile one's does.
        let plain = try #require(Tmux.rows(of: screen).first { $0.hasPrefix("plain ") }, "\(screen)")
        #expect(plain.range(of: "A plain title").map { plain.distance(from: plain.startIndex, to: $0.lowerBound) }
                == row.range(of: "Safe").map { row.distance(from: row.startIndex, to: $0.lowerBound) }, "\(row)\n\(plain)")
    }

    @Test("show in a terminal shows the marks")
    func show() async throws {
        let screen = try await run("show evil.bib evil").screen
        #expect(screen.contains("Title       \(HostileText.cleanedTitle)"), "\(screen)")
        #expect(screen.contains("  note     \(HostileText.cleanedNote)"), "\(screen)")
        #expect(screen.contains("  \(HostileText.cleanedURL)"), "\(screen)")
    }

    @Test("list and show --json in a terminal escape the controls")
    func json() async throws {
        let screen = try await run("list --json evil.bib; \(ProcessRunner.bibreadExecutable.path) show --json evil.bib evil").screen
        #expect(screen.components(separatedBy: "Safe\\u001b]52;c;ZXZpbA==\\u0007 title").count >= 4, "\(screen)")
    }

    @Test("Encoded C1 controls (Windows-1252, Latin-1) show as marks")
    func encodings() async throws {
        let screen = try await run("list windows-1252.bib latin-1.bib").screen
        #expect(screen.contains(HostileText.cleanedWindows1252Title), "\(screen)")
        #expect(screen.contains(HostileText.cleanedLatin1Title), "\(screen)")
    }

    @Test("sync shows a server's hostile error page with marks, without clearing the screen")
    func sync() async throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("@misc{paper, title = {A paper}}\n".utf8).write(to: root.appendingPathComponent("library.bib"))
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        try server.setFault(.statusWithBody(500, body: HostileText.errorPage), for: "library.bib")
        let screen = try await run("sync lab") { try server.writeRemoteConfig(named: "lab", configHome: $0.config) }.screen
        #expect(screen.contains("HTTP 500: \(HostileText.cleanedErrorPage)"), "\(screen)")
    }
}
