import BibreadTestSupport
import Foundation
import Testing

/// Bookmarks end to end: the real binary in tmux bookmarks a page and writes its note, quits,
/// is started again, and jumps to the bookmark; a second process sees the same store.
@Suite("Bookmarks, end to end (tmux)", .onOwnThreads)
struct BookmarksEndToEndTests {
    @Test("Add a bookmark and a note with m and n, quit, reopen, jump to the bookmark")
    func bookmarkSurvivesARestart() async throws {
        let library = SampleLibrary.path
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([library]) }) { tmux, sandbox in
            try await helper.openSamplePDF(key: "goedel1931formal", in: tmux)
            try await tmux.waitFor("p. 1 / 11")
            try await tmux.sendKeys(":")
            try await tmux.type("5")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("p. 5 / 11")
            try await tmux.sendKeys("m")
            try await tmux.waitFor("Bookmarked p. 5", "★ p. 5 / 11")
            try await tmux.sendKeys("n")
            try await tmux.waitFor("Note on p. 5")
            try await tmux.type("Check the diagonal lemma")
            try await tmux.sendKeys("C-s")
            try await tmux.waitFor("Saved the note on p. 5", "✎ ★ p. 5 / 11")
            // Read on, so that the remembered position differs from the bookmark.
            try await tmux.sendKeys("]", "]")
            try await tmux.waitFor("p. 7 / 11")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("1 of 25")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)

            // Another process reads the same store.
            let environment = sandbox.sideEnvironment
            let listed = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, ["bookmarks", "list"], environment: environment)
            #expect(String(decoding: listed.standardOutput, as: UTF8.self).contains("goedel1931formal p. 5 · "))

            // The same command again, in the same sandbox.
            try await tmux.respawn()
            try await tmux.waitFor("25 of 25")
            try await tmux.sendKeys("b")
            try await tmux.waitFor("Bookmarks", "goedel1931formal p. 5")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("★ p. 5 / 11", "Check the diagonal lemma")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("goedel1931formal p. 5")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
