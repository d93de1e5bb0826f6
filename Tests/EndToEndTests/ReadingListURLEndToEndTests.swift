import BibreadTestSupport
import Foundation
import Testing

/// A reading list imported from an http URL in the reader: the list downloads (slowly, so that
/// its progress is reported) and is imported. The download keeps its progress report past the
/// load, and the reader used to let that crash it ("closure argument was escaped in
/// withoutActuallyEscaping block", SIGILL).
@Suite("Reading list from a URL, end to end (tmux)", .onOwnThreads)
struct ReadingListURLEndToEndTests {
    @Test("b, i, an http URL: the list downloads and is imported")
    func aListFromAURLIsImported() async throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let bookmarks = (1...40).map { page in
            #"{"Class": "Bookmark", "Name": "Page \#(page)", "Reference": {"Class": "Reference", "CiteKey": "goedel1931formal", "Page": \#(page)}}"#
        }
        let list = #"{"Class": "Folder", "Name": "Slow list", "Children": ["# + bookmarks.joined(separator: ", ") + "]}"
        try Data(list.utf8).write(to: root.appendingPathComponent("list.json"))
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        // About 2 s for the whole list.
        try server.setFault(.slow(bytesPerSecond: max(1, list.utf8.count / 2)), for: "/list.json")

        let helper = ReaderEndToEndTests()
        try await helper.withSession(command: { $0.bibread([SampleLibrary.path]) }) { tmux, _ in
            try await tmux.waitFor("25 of 25")
            try await tmux.sendKeys("b")
            try await tmux.waitFor("Bookmarks")
            try await tmux.sendKeys("i")
            try await tmux.type(server.url(for: "list.json").absoluteString)
            try await tmux.sendKeys("Enter")
            try await tmux.waitFor("Imported 'Slow list': 40 bookmarks")
            try await tmux.sendKeys("q", "q")
            try await helper.expectCleanExit(tmux)
        }
    }
}
