import BibreadTestSupport
import Foundation
import Testing

/// A remote's listing that misbehaves (issue 26, item 12): one bad entry is refused with a
/// message and the rest syncs; a busy listing (5xx) is tried again as a download is, after the
/// wait its `Retry-After` asks for, within a bound.
@Suite("listings that misbehave")
struct ListingFaultTests {
    /// The fault server stands in for a WebDAV remote whose root listing also holds `href`.
    @Test(arguments: [
        ("/../evil.bib", "climbs out of the folder", 0),
        ("/" + String(repeating: "x", count: 300) + ".bib", "longer than 255 bytes", 0),
        ("/a%00b.bib", "NUL", 0),
        // Listed, but not there when fetched: a failure of that file alone (status 1).
        ("/gone.bib", "404", 1),
    ])
    func oneBadEntryInAListingIsRefusedAndTheRestSyncs(_ href: String, _ reason: String, _ status: Int32) throws {
        let sandbox = try SyncSandbox()
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.extraEntries([href]), for: "/")
        let sync = try sandbox.bibread(["sync", server.baseURL.absoluteString, "--name", "lab", "--group", "Typesetting"])
        #expect(sync.status == status, "\(sync.standardError)")
        #expect(sync.standardError.contains(reason), "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated (25 references)"), "\(sync.standardError)")
        #expect(sync.standardError.contains("2 downloaded"), "\(sync.standardError)")
        #expect(!sync.standardError.contains("\u{0}"))
        #expect(sandbox.files(under: sandbox.cache("lab")).filter { $0.hasSuffix(".pdf") } == ["papers/line-breaking.pdf", "papers/tex-tour.pdf"])
        #expect(sandbox.files(under: sandbox.library("lab")).filter { $0.hasSuffix(".bib") } == ["library.bib"])
        #expect(!FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("data/bibread/remotes/evil.bib").path))
        let list = try sandbox.bibread(["list", "lab"])
        #expect(list.standardOutput.split(separator: "\n").count == 25, "\(list.standardError)")
    }

    /// A root listing answered 503 twice, with `Retry-After: 2`: the sync waits as asked and
    /// then goes on; so does one answered 500 once, with no `Retry-After`.
    @Test(arguments: [(FaultServer.Fault.busy(times: 2, status: 503, retryAfter: "2"), 2.0),
                      (FaultServer.Fault.failTimes(1, status: 500), 0.0)])
    func aBusyListingIsTriedAgainAfterTheWaitItAsksFor(_ fault: FaultServer.Fault, _ wait: Double) throws {
        let sandbox = try SyncSandbox()
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(fault, for: "/")
        let sync = try sandbox.bibread(["sync", server.baseURL.absoluteString, "--name", "lab", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("Done: 2 downloaded"), "\(sync.standardError)")
        let listings = server.timedRequests.filter { $0.request == "PROPFIND /" }.map(\.time)
        let tries = wait > 0 ? 3 : 2
        #expect(listings.count == tries, "\(server.timedRequests)")
        for (earlier, later) in zip(listings, listings.dropFirst()) {
            #expect(later - earlier >= wait * 0.95, "tried again after \(later - earlier) s, asked to wait \(wait) s")
        }
    }

    /// Ctrl-C while the sync waits to ask a busy server again ends it at once, as cancelled.
    @Test func ctrlCEndsTheWaitForABusyServer() throws {
        let sandbox = try SyncSandbox()
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.busy(times: 1000, status: 503, retryAfter: "30"), for: "/")
        let (status, output, seconds) = try sandbox.interruptedSync([server.baseURL.absoluteString, "--name", "lab"],
                                                                    once: "the server was asked for its listing") {
            server.requests.contains("PROPFIND /")
        }
        #expect(status == 130, "\(output)")
        #expect(output.contains("trying again then"), "\(output)")
        #expect(seconds < TestTiming.seconds(10), "the sync took \(seconds) s to end after Ctrl-C")
        #expect(server.requests.filter { $0 == "PROPFIND /" }.count == 1, "\(server.requests)")
    }

    /// A server that asks for a wait longer than a sync waits (an hour) is not waited out, nor
    /// asked again and again: the sync fails at once and says what the server asked.
    @Test func aListingWhoseServerAsksForAnHourIsNotWaitedOut() throws {
        let sandbox = try SyncSandbox()
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.busy(times: 1000, status: 503, retryAfter: "3600"), for: "/")
        let started = Date()
        let sync = try sandbox.bibread(["sync", server.baseURL.absoluteString, "--name", "lab"])
        let seconds = Date().timeIntervalSince(started)
        #expect(sync.status == 1, "\(sync.standardError)")
        #expect(sync.standardError.contains("503"), "\(sync.standardError)")
        #expect(sync.standardError.contains("1 h"), "\(sync.standardError)")
        #expect(seconds < TestTiming.seconds(30), "the sync took \(seconds) s")
        #expect(server.requests.filter { $0 == "PROPFIND /" }.count == 1, "\(server.requests)")
    }

    /// A download answered 503 with `Retry-After: 2` (a PDF, or the .bib) is tried again after
    /// the wait the server asks for, not after the sync's own short backoff.
    @Test(arguments: ["/papers/tex-tour.pdf", "/library.bib"])
    func aBusyDownloadIsTriedAgainAfterTheWaitItAsksFor(_ path: String) throws {
        let sandbox = try SyncSandbox()
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.busy(times: 2, status: 503, retryAfter: "2"), for: path)
        let sync = try sandbox.bibread(["sync", server.baseURL.absoluteString, "--name", "lab", "--group", "Typesetting"])
        #expect(sync.status == 0, "\(sync.standardError)")
        #expect(sync.standardError.contains("Done: 2 downloaded"), "\(sync.standardError)")
        let gets = server.timedRequests.filter { $0.request == "GET \(path)" }.map(\.time)
        #expect(gets.count == 3, "\(server.timedRequests)")
        for (earlier, later) in zip(gets, gets.dropFirst()) {
            #expect(later - earlier >= 1.9, "tried again after \(later - earlier) s, asked to wait 2 s")
        }
    }

    /// A download whose server asks for an hour is not waited out nor asked again: that file
    /// fails at once, saying what the server asked; the others sync.
    @Test func aDownloadWhoseServerAsksForAnHourFailsAtOnce() throws {
        let sandbox = try SyncSandbox()
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.busy(times: 1000, status: 503, retryAfter: "3600"), for: "/papers/tex-tour.pdf")
        let started = Date()
        let sync = try sandbox.bibread(["sync", server.baseURL.absoluteString, "--name", "lab", "--group", "Typesetting"])
        let seconds = Date().timeIntervalSince(started)
        #expect(sync.status == 1, "\(sync.standardError)")
        #expect(sync.standardError.contains("papers/tex-tour.pdf: HTTP 503: fault: status 503; it asks to be asked again in 1 h"), "\(sync.standardError)")
        #expect(sync.standardError.contains("1 downloaded"), "\(sync.standardError)")
        #expect(seconds < TestTiming.seconds(30), "the sync took \(seconds) s")
        #expect(server.requests.filter { $0 == "GET /papers/tex-tour.pdf" }.count == 1, "\(server.requests)")
    }
}
