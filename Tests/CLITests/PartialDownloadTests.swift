import BibreadTestSupport
import Foundation
import Testing

/// The `.part` files of downloads that did not finish (issue 26, item 4): `cache status` counts
/// them, `cache purge` removes them, a sync drops those it does not want, and a full disk is
/// said to be full, with bibread's own partial downloads freed so that the next sync works.
@Suite("partial downloads in the cache")
struct PartialDownloadTests {
    /// A sync interrupted by Ctrl-C (SIGINT) while a 3 MB PDF comes slowly leaves its `.part`:
    /// `cache status` shows it, `cache purge --all` removes it, a sync of other PDFs drops it,
    /// and a sync that wants that PDF keeps it and resumes it.
    @Test func partialDownloadsAreCountedPurgedAndDroppedWhenNoLongerWanted() throws {
        let sandbox = try SyncSandbox()
        try sandbox.addBigPDF(bytes: 3_000_000)
        let server = try FaultServer.start(root: sandbox.remote)
        defer { server.stop() }
        try server.setFault(.slow(bytesPerSecond: 200_000), for: "papers/big.pdf")
        let part = sandbox.cache("lab").appendingPathComponent("papers/big.pdf.part")
        let interrupted = try sandbox.interruptedSync([server.baseURL.absoluteString, "--name", "lab", "--field", "wanted"],
                                                      once: part, holds: 100_000)
        #expect(interrupted == 130)
        let partBytes = try #require(sandbox.size(part))

        let status = try sandbox.bibread(["cache", "status", "lab"])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(status.standardOutput.contains("1 partial download"), "\(status.standardOutput)")
        #expect(status.standardOutput.contains("papers/big.pdf"), "\(status.standardOutput)")
        let json = try sandbox.bibread(["cache", "status", "lab", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(report.first?["partialBytes"] as? Int == Int(partBytes), "\(json.standardOutput)")
        let partial = report.first?["partial"] as? [[String: Any]]
        #expect(partial?.first?["path"] as? String == "papers/big.pdf", "\(json.standardOutput)")

        let purge = try sandbox.bibread(["cache", "purge", "lab", "--all"])
        #expect(purge.status == 0, "\(purge.standardError)")
        #expect(sandbox.size(part) == nil, "cache purge --all left \(part.path)")
        #expect(purge.standardOutput.contains("1 partial download"), "\(purge.standardOutput)")
        #expect(try sandbox.bibread(["cache", "status", "lab"]).standardOutput.hasPrefix("lab: 0 PDFs"))

        // A sync of other PDFs drops the .part of one no longer selected.
        #expect(try sandbox.interruptedSync(["lab", "--field", "wanted"], once: part, holds: 100_000) == 130)
        let other = try sandbox.bibread(["sync", "lab", "--group", "Typesetting"])
        #expect(other.status == 0, "\(other.standardError)")
        #expect(sandbox.size(part) == nil, "a sync that does not want papers/big.pdf left its .part: \(other.standardError)")
        #expect(sandbox.files(under: sandbox.cache("lab")).allSatisfy { !$0.hasSuffix(".part") })

        // One that wants it keeps it, and resumes it.
        #expect(try sandbox.interruptedSync(["lab", "--field", "wanted"], once: part, holds: 100_000) == 130)
        let kept = try #require(sandbox.size(part))
        try server.clearFaults()
        let resumed = try sandbox.bibread(["sync", "lab", "--field", "wanted", "--json"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let finished = try #require(SyncSandbox.events(resumed).last { $0["event"] as? String == "finished" })
        #expect(finished["downloadedBytes"] as? Int == 3_000_000 - Int(kept), "\(finished)")
        #expect(try Data(contentsOf: sandbox.cache("lab").appendingPathComponent("papers/big.pdf"))
                == Data(contentsOf: sandbox.remote.appendingPathComponent("papers/big.pdf")))
    }

    /// The cache is on a small disk (a tmpfs) that a 1.5 MB PDF does not fit on. The sync that
    /// wants it says the disk is full and where, and frees the partial download it made; the
    /// next sync, of small PDFs, works (it failed with "database or disk is full", every time,
    /// until someone removed the `.part` by hand).
    @Test(.enabled(if: SmallDisk.isAvailable, "needs a tmpfs in a mount namespace: \(SmallDisk.unavailableReason ?? "")"))
    func aFullDiskIsSaidAndOurPartialDownloadsAreFreed() throws {
        let sandbox = try SyncSandbox()
        try sandbox.addBigPDF(bytes: 1_500_000)
        let server = try WebDAVServer.start(root: sandbox.remote)
        defer { server.stop() }
        try FileManager.default.createDirectory(at: sandbox.cachesRoot, withIntermediateDirectories: true)
        let results = try SmallDisk.run([
            .bibread(["sync", server.baseURL.absoluteString, "--name", "lab", "--field", "wanted"]),
            .run(URL(fileURLWithPath: "/usr/bin/find"), [sandbox.cachesRoot.path, "-name", "*.part"]),
            .bibread(["sync", "lab", "--group", "Typesetting"]),
            .bibread(["sync", "lab", "--group", "Typesetting"]),
            .bibread(["cache", "status", "lab"]),
        ], on: sandbox.cachesRoot, bytes: 700_000, environment: sandbox.environment)
        let full = results[0]
        #expect(full.status == 1, "\(full.standardError)")
        #expect(full.standardError.contains("is full"), "\(full.standardError)")
        #expect(full.standardError.contains(sandbox.cache("lab").path), "\(full.standardError)")
        #expect(results[1].standardOutput.isEmpty, "partial downloads left on the full disk: \(results[1].standardOutput)")
        for next in results[2...3] {
            #expect(next.status == 0, "\(next.standardError)")
            #expect(!next.standardError.contains("disk is full"), "\(next.standardError)")
        }
        #expect(results[4].standardOutput.hasPrefix("lab: 2 PDFs"), "\(results[4].standardOutput)")
    }
}
