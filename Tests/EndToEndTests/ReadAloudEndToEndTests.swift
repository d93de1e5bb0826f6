import BibreadTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An app of the "listen" kind that ends by itself (issue 26, item 13): the reader said
/// "Finished reading aloud" for any that exited with status 0, such as one that read nothing
/// and exited at once. It now says what happened: the app ended by itself, after how long, and
/// how when it failed.
@Suite("Reading aloud, an app that ends by itself, end to end (tmux)", .onOwnThreads)
struct ReadAloudEndToEndTests {
    @Test("A reader-aloud that exits at once is not said to have finished reading", arguments: [0, 3])
    func anAppThatEndsAtOnce(status: Int) async throws {
        let helper = ReaderEndToEndTests()
        let bin = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        // Reads nothing, says nothing, ends.
        let speaker = bin.appendingPathComponent("espeak-ng")
        try "#!/bin/sh\nexit \(status)\n".write(to: speaker, atomically: true, encoding: .utf8)
        chmod(speaker.path, 0o755)
        try await helper.withSession(command: {
            $0.bibread(["open", "goedel1931formal:2", "--library", SampleLibrary.path], environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
        }) { tmux, _ in
            try await tmux.waitFor("p. 2 / 11")
            try await tmux.sendKeys("o", "Tab", "Tab", "Tab", "Tab")
            try await tmux.waitFor("with — Listen", "Read the page aloud")
            try await tmux.sendKeys("Enter")
            let screen = try await tmux.waitFor("Read the page aloud (espeak-ng) ended by itself after ")
            #expect(!screen.contains("Finished reading aloud"), "\(screen)")
            let line = try #require(Tmux.rows(of: screen).first { $0.contains("ended by itself") })
            #expect(line.contains(status == 0 ? "ended by itself after 0." : "(exited with status 3)"), "\(line)")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
