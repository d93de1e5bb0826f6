import BibreadTestSupport
import Foundation
import Testing

/// The reading view's position memory, end to end: the real binary in tmux goes to a page with
/// `:`, quits, and `bibread read --resume` (a second process) prints that page.
@Suite("Reading position, end to end (tmux)", .onOwnThreads)
struct ReadingEndToEndTests {
    @Test("Go to a page with :, quit, and bibread read --resume prints that page; the reader resumes there too")
    func positionSurvivesQuitting() async throws {
        let library = SampleLibrary.path
        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([library]) }) { tmux, sandbox in
            try await helper.openSamplePDF(key: "goedel1931formal", in: tmux)
            try await tmux.waitFor("p. 1 / 11")
            try await tmux.sendKeys(":")
            try await tmux.waitFor("Go to page")
            try await tmux.type("7")
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("p. 7 / 11 · 63%")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("1 of 25")
            // Opening it again resumes there, and says so.
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("Resumed at p. 7", "p. 7 / 11")
            try await tmux.sendKeys("q")
            try await tmux.waitFor("1 of 25")
            try await tmux.sendKeys("q")
            try await helper.expectCleanExit(tmux)

            let environment = sandbox.sideEnvironment
            let resumed = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, ["read", library, "goedel1931formal", "--resume", "--width", "70"],
                                                   environment: environment)
            #expect(resumed.status == 0, "\(resumed.standardError)")
            let page7 = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, ["read", library, "goedel1931formal", "--page", "7", "--width", "70"],
                                                 environment: environment)
            #expect(!page7.output.isEmpty)
            #expect(resumed.output == page7.output)
            let json = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, ["read", library, "goedel1931formal", "--resume", "--json"],
                                                environment: environment)
            let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutput) as? [String: Any])
            #expect(object["page"] as? Int == 7)
            #expect(object["pageCount"] as? Int == 11)
        }
    }
}
