import BibreadTestSupport
import Foundation
import Testing

/// The library view with several .bib files open at once, end to end (tmux): the reading
/// history follows the documents read, whatever set of files is open.
@Suite("Library view, end to end (tmux)", .onOwnThreads)
struct LibraryViewEndToEndTests {
    @Test("Recently read lists a paper read with one .bib when it is opened together with another")
    func recentlyReadFollowsTheDocumentAcrossSetsOfFiles() async throws {
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([SampleLibrary.path]) }) { tmux, sandbox in
            try await helper.openSamplePDF(key: "goedel1931formal", in: tmux)
            try await tmux.waitFor("/ 11")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("1 of 25")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)

            let other = sandbox.home.appendingPathComponent("other.bib")
            try "@book{other2020book, author = {Other, Ann}, title = {Another Book}, year = 2020}\n"
                .write(to: other, atomically: true, encoding: .utf8)
            try await helper.withNextSession(in: sandbox, command: sandbox.bibread([SampleLibrary.path, other.path])) { both in
                try await both.waitFor("26 of 26 · All")
                let screen = Screen(try await both.waitUntil("Recently read counted") { Screen($0).groupCount("Recently read") != nil })
                #expect(screen.groupCount("Recently read") == 1, "\(screen.text)")
                try await both.sendKeys("q")
                try await helper.expectCleanExit(both)
            }
        }
    }
}

extension ReaderEndToEndTests {
    /// Runs the next start of bibread in the same sandbox (so with the state the session before
    /// left), in a tmux server of its own that `body` drives and that is stopped after it.
    func withNextSession(in sandbox: Sandbox, width: Int = 120, height: Int = 40, command: [String],
                         _ body: (Tmux) async throws -> Void) async throws {
        let tmux = try await Tmux.start(width: width, height: height, command: command, in: sandbox)
        do {
            try await body(tmux)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
    }
}
