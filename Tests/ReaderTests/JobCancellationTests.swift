import BibModel
import BibreadServices
import BibreadTestSupport
import Foundation
import ReadingList
@testable import Reader
@testable import ReaderCore
import Testing

/// Each background job (a download, a sync, a reading-list load, indexing) has its own
/// cancellation: stopping one never stops another. Run through the app's real `EffectRunner`
/// and dispatch queues, against a real HTTP server that sends the list slowly.
@Suite("job cancellation")
struct JobCancellationTests {
    /// A reading list of `count` bookmarks, as JSON.
    static func listBytes(count: Int) -> [UInt8] {
        let bookmarks = (1...count).map { index in
            BookmarkNode.bookmark(Bookmark(name: "Bookmark \(index)", reference: PageReference(citeKey: "goedel1931formal", page: index)))
        }
        return ReadingListCoder.encode(ReadingList(root: BookmarkFolder(name: "Slow list", children: bookmarks)), as: .json)
    }

    /// Waits (at most `seconds`) for the events posted to `mailbox` until one satisfies `done`.
    static func events(from mailbox: Mailbox, until done: (Event) -> Bool, seconds: Double = 60) -> [Event] {
        var events: [Event] = []
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let taken = mailbox.take()
            events += taken
            if taken.contains(where: done) { break }
            usleep(20_000)
        }
        return events
    }

    /// A reading list downloads (slowly) while the user starts a download and stops it: the
    /// list must still arrive. With one flag for every transfer, stopping the download stopped
    /// the list instead, and nothing said so.
    @Test func stoppingADownloadLeavesAReadingListLoading() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let bytes = Self.listBytes(count: 60)
        try Data(bytes).write(to: root.appendingPathComponent("list.json"))
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        // About 3 s for the whole list, so that the stop comes while it is under way.
        try server.setFault(.slow(bytesPerSecond: max(1, bytes.count / 3)), for: "/list.json")

        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let work = BackgroundWork(library: library, groups: [], store: try ReadingStore(directory: folder), fullTextURL: nil)
        let mailbox = Mailbox(wakeDescriptor: -1)
        let runner = EffectRunner(work: work, mailbox: mailbox)

        let source = server.url(for: "list.json").absoluteString
        runner.run(.readingList(.loadReadingList(source: source)))
        let deadline = Date().addingTimeInterval(30)
        while !server.requests.contains(where: { $0.hasPrefix("GET /list.json") }), Date() < deadline { usleep(10_000) }
        try #require(server.requests.contains { $0.hasPrefix("GET /list.json") }, "the list was never asked for")
        // A download asked for and stopped at once (it waits behind the list on the transfers' queue).
        runner.run(.sync(.fetchFile(path: "/papers/elsewhere.pdf")))
        runner.run(.sync(.cancelFetch))

        let events = Self.events(from: mailbox) { if case .fetchFailed = $0 { true } else { false } }
        let loaded = events.contains { if case .readingListLoaded(let from, _, let decoded) = $0 { from == source && decoded.list.bookmarks.count == 60 } else { false } }
        #expect(loaded, "the reading list did not arrive: \(events.map(\.name))")
    }

    /// Each stop the state can ask for cancels the job of its own kind and no other, also
    /// while that job still waits on its queue (its token is made when it is asked for).
    @Test func eachStopCancelsItsOwnJobOnly() throws {
        let library = Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib"))
        let work = BackgroundWork(library: library, groups: [], fullTextURL: nil)
        let runner = EffectRunner(work: work, mailbox: Mailbox(wakeDescriptor: -1))
        let stops: [(Effect, BackgroundJob)] = [(.sync(.cancelFetch), .download), (.sync(.cancelSync), .sync),
                                                (.readingList(.cancelReadingList), .readingList)]
        for (stop, job) in stops {
            let tokens = Dictionary(uniqueKeysWithValues: BackgroundJob.allCases.map { ($0, work.jobs.begin($0)) })
            runner.run(stop)
            for (kind, token) in tokens {
                #expect(token.isCancelled == (kind == job), "\(stop) and the \(kind) job")
            }
        }
        let indexing = work.jobs.begin(.indexing)
        let download = work.jobs.begin(.download)
        runner.replace(BackgroundWork(library: library, groups: [], fullTextURL: nil))
        #expect(indexing.isCancelled, "a reload stops indexing the old library")
        #expect(!download.isCancelled)
    }
}
