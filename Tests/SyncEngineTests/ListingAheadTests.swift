import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

/// The folders at a remote's root are listed on other threads while the .bib downloads, so the
/// PDFs start without another round trip; a failed listing ahead is listed again in order.
@Suite("listing folders ahead")
struct ListingAheadTests {
    /// A folder remote whose listings are recorded: which folder, and whether the sync's own
    /// thread asked. It can fail the first listing of some folders made on another thread.
    final class RecordingTransport: Transport, @unchecked Sendable {
        let folder: FolderTransport
        let syncThread = pthread_self()
        private let lock = NSLock()
        private var calls: [(folder: String, ahead: Bool)] = []
        private var failing: Set<String>
        private var running = 0
        /// Listings of these folders made on another thread take `slowness` microseconds.
        var slowAhead: Set<String> = []
        var slowness: useconds_t = 300_000
        /// Downloads of these paths are refused.
        var refused: Set<String> = []

        init(root: URL, failingAhead: Set<String> = []) throws {
            folder = try FolderTransport(url: root.absoluteString)
            failing = failingAhead
        }

        var listings: [(folder: String, ahead: Bool)] { lock.withLock { calls } }

        /// Listings under way now.
        var listingsRunning: Int { lock.withLock { running } }

        func list(_ path: String) throws -> [RemoteFile] {
            let ahead = pthread_equal(pthread_self(), syncThread) == 0
            let (fails, slow) = lock.withLock {
                calls.append((path, ahead))
                running += 1
                return (ahead && failing.remove(path) != nil, ahead && slowAhead.contains(path))
            }
            defer { lock.withLock { running -= 1 } }
            if slow { usleep(slowness) }
            if fails { throw TransportError.http(status: 503, url: path, detail: "busy") }
            return try folder.list(path)
        }

        func downloadRequest(_ path: String, from offset: Int64) throws -> TransferRequest {
            if refused.contains(path) { throw TransportError.http(status: 403, url: path, detail: "refused") }
            return try folder.downloadRequest(path, from: offset)
        }
    }

    /// Samples' library and PDFs under remote/, with `extraFolders` beside papers/.
    static func remote(in root: URL, extraFolders: Int) throws -> URL {
        let remote = root.appendingPathComponent("remote")
        let papers = remote.appendingPathComponent("papers")
        try FileManager.default.createDirectory(at: papers, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("library.bib"), to: remote.appendingPathComponent("library.bib"))
        let samplePapers = Fixtures.samples.appendingPathComponent("papers")
        for name in try FileManager.default.contentsOfDirectory(atPath: samplePapers.path) where name.hasSuffix(".pdf") {
            try FileManager.default.copyItem(at: samplePapers.appendingPathComponent(name), to: papers.appendingPathComponent(name))
        }
        for index in 0..<extraFolders {
            try FileManager.default.createDirectory(at: remote.appendingPathComponent("other\(index)"), withIntermediateDirectories: true)
        }
        return remote
    }

    static func sync(_ transport: RecordingTransport, remoteURL: URL, root: URL,
                     isCancelled: @escaping () -> Bool = { false }) throws -> SyncSummary {
        let environment = Fixtures.isolatedEnvironment(under: root)
        let remote = try Remote(url: remoteURL.absoluteString)
        var options = SyncOptions()
        options.selection = SyncSelection(allPDFs: true)
        return try Syncer(remote: remote, locations: RemoteLocations(name: remote.name, environment: environment),
                          transport: transport, session: CurlSession())
            .run(options, events: { _ in }, isCancelled: isCancelled)
    }

    @Test func theFoldersAtTheRootAreListedAheadOnceEach() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let remoteURL = try Self.remote(in: root, extraFolders: 1)
        let transport = try RecordingTransport(root: remoteURL)
        let summary = try Self.sync(transport, remoteURL: remoteURL, root: root)
        #expect(summary.succeeded)
        #expect(summary.downloaded == 5)
        let listings = transport.listings
        #expect(listings.filter { !$0.ahead }.map(\.folder) == [""])
        #expect(listings.filter(\.ahead).map(\.folder).sorted() == ["other0", "papers"])

        // The next sync lists ahead only the folder its PDFs were in.
        let again = try RecordingTransport(root: remoteURL)
        let second = try Self.sync(again, remoteURL: remoteURL, root: root)
        #expect(second.downloaded == 0 && second.current == 5)
        #expect(again.listings.map(\.folder) == ["", "papers"])
        #expect(again.listings.map(\.ahead) == [false, true])
    }

    @Test func aRootWithManyFoldersIsNotListedAhead() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let remoteURL = try Self.remote(in: root, extraFolders: Syncer.maximumFoldersListedAhead)
        let transport = try RecordingTransport(root: remoteURL)
        let summary = try Self.sync(transport, remoteURL: remoteURL, root: root)
        #expect(summary.downloaded == 5)
        // Only what the PDFs need is listed, after the library is read.
        #expect(transport.listings.map(\.folder) == ["", "papers"])
        #expect(transport.listings.allSatisfy { !$0.ahead })

        // The next sync knows where the PDFs are, and lists that folder ahead.
        let again = try RecordingTransport(root: remoteURL)
        _ = try Self.sync(again, remoteURL: remoteURL, root: root)
        #expect(again.listings.map(\.folder) == ["", "papers"])
        #expect(again.listings.map(\.ahead) == [false, true])
    }

    @Test func pdfsAtTheRootUseTheRootListingWithoutAnother() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let remoteURL = root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remoteURL, withIntermediateDirectories: true)
        try Data("@article{a, title = {A}, file = {:a.pdf:PDF}}\n".utf8).write(to: remoteURL.appendingPathComponent("library.bib"))
        try FileManager.default.copyItem(at: Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf"), to: remoteURL.appendingPathComponent("a.pdf"))
        let transport = try RecordingTransport(root: remoteURL)
        let summary = try Self.sync(transport, remoteURL: remoteURL, root: root)
        #expect(summary.downloaded == 1)
        #expect(transport.listings.map(\.folder) == [""])
    }

    @Test func aListingAheadThatFailsIsListedAgainInOrder() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let remoteURL = try Self.remote(in: root, extraFolders: 0)
        let transport = try RecordingTransport(root: remoteURL, failingAhead: ["papers"])
        let summary = try Self.sync(transport, remoteURL: remoteURL, root: root)
        #expect(summary.succeeded)
        #expect(summary.downloaded == 5)
        #expect(transport.listings.map(\.folder).sorted() == ["", "papers", "papers"])
        #expect(transport.listings.filter { $0.folder == "papers" }.map(\.ahead).sorted { !$0 && $1 } == [false, true])
    }

    /// No listing started ahead outlives the sync, whether it ends well or throws: a process
    /// that exits under a transfer runs libcurl's and OpenSSL's clean-up beneath it.
    @Test func noListingAheadOutlivesTheSync() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let remoteURL = try Self.remote(in: root, extraFolders: 1)
        let transport = try RecordingTransport(root: remoteURL)
        transport.slowAhead = ["other0"]
        let summary = try Self.sync(transport, remoteURL: remoteURL, root: root)
        #expect(summary.downloaded == 5)
        #expect(transport.listingsRunning == 0, "the listing of other0, not needed, was waited for")

        let failing = try RecordingTransport(root: remoteURL)
        failing.slowAhead = ["other0", "papers"]
        failing.refused = ["library.bib"]
        try FileManager.default.removeItem(at: root.appendingPathComponent("data"))
        #expect(throws: (any Error).self) { try Self.sync(failing, remoteURL: remoteURL, root: root) }
        #expect(failing.listings.filter(\.ahead).count == 2)
        #expect(failing.listingsRunning == 0, "the listings ahead ended before the sync threw")
    }

    /// Ctrl-C does not wait for a stalled listing: a cancelled sync gives its listings ahead
    /// `Syncer.listingPatience` seconds, then ends.
    @Test func aCancelledSyncDoesNotWaitForAStalledListing() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let remoteURL = try Self.remote(in: root, extraFolders: 0)
        let transport = try RecordingTransport(root: remoteURL)
        transport.slowAhead = ["papers"]
        transport.slowness = 6_000_000
        let started = Date()
        let summary = try Self.sync(transport, remoteURL: remoteURL, root: root, isCancelled: { true })
        let waited = Date().timeIntervalSince(started)
        #expect(summary.cancelled)
        #expect(transport.listings.contains { $0.folder == "papers" && $0.ahead })
        #expect(waited >= Syncer.listingPatience - 0.5 && waited < Syncer.listingPatience + 2,
                "waited \(waited) s for a listing that takes 6 s")
    }
}
