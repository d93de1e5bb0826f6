import BibreadTestSupport
import Foundation
import Testing

/// The reading view as a user meets it in a real terminal: Ctrl-C quits from the page, and the
/// bookmarks view shows what `bibread bookmarks add` adds from another shell while it is open.
@Suite("Reading keys and live bookmarks, end to end (tmux)", .onOwnThreads)
struct ReadingKeysEndToEndTests {
    @Test("Ctrl-C in the reading view quits bibread and gives the shell back")
    func controlCQuitsFromTheReadingView() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([SampleLibrary.path]) }) { tmux, _ in
            try await helper.openSamplePDF(key: "goedel1931formal", in: tmux)
            try await tmux.waitFor("p. 1 / 11")
            try await tmux.sendKeys("C-c")
            try await helper.expectCleanExit(tmux)
        }
    }

    @Test("A bookmark added from another shell shows in the open bookmarks view")
    func theBookmarksViewFollowsTheCommandLine() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([SampleLibrary.path]) }) { tmux, sandbox in
            try await tmux.waitFor("25 of 25")
            try await tmux.sendKeys("b")
            try await tmux.waitFor("Bookmarks")
            let environment = sandbox.sideEnvironment
            let added = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path,
                                                 ["bookmarks", "add", "goedel1931formal:6", "--library", SampleLibrary.path],
                                                 environment: environment)
            #expect(added.status == 0, "\(added.output)")
            try await tmux.waitFor("goedel1931formal p. 6")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
