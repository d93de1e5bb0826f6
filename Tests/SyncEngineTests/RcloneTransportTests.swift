import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

/// The parts of the rclone transport that need no rclone: its remote's syntax, its reading of
/// rclone's times, the cleaning of what rclone says; and, with the real rclone, listings whose
/// versions do not change while the files do not.
@Suite("rclone remotes: syntax, times, messages, listings")
struct RcloneTransportTests {
    @Test func theRemoteAndItsFolder() throws {
        let location = try RcloneLocation(url: "rclone:gdrive:Papers/Lab/")
        #expect(location.root == "gdrive:Papers/Lab")
        #expect(location.remoteName == "gdrive" && location.folder == "Papers/Lab" && location.derivedName == "Lab")
        #expect(try location.rclonePath("papers/a b.pdf") == "gdrive:Papers/Lab/papers/a b.pdf")
        #expect(location.relativePath(of: "gdrive:Papers/Lab/papers/a b.pdf") == "papers/a b.pdf")
        #expect(location.relativePath(of: "gdrive:Papers/Labx/a.pdf") == nil)
        let top = try RcloneLocation(url: "rclone:s3:")
        #expect(try top.rclonePath("library.bib") == "s3:library.bib" && top.derivedName == "s3")
        #expect(try Remote(url: "rclone:gdrive:Papers").kind == .rclone)
        #expect(try Remote(url: "rclone:gdrive:Papers").name == "Papers")
    }

    @Test func unsafeRootsAndPathsAreRefused() {
        for url in ["rclone:", "rclone:noColon", "rclone::nothing", "rclone:--config=/tmp/x:", "rclone:gd:a\u{1B}[2Jb"] {
            #expect(throws: RemoteError.self, "\(url)") { try RcloneLocation(url: url) }
        }
        let location = try? RcloneLocation(url: "rclone:gd:Papers")
        for path in ["../secret", "/etc/passwd", "a/../../b"] {
            #expect(throws: RemoteError.self, "\(path)") { try location?.rclonePath(path) }
        }
    }

    @Test func rclonesTimesInAnyZoneAreTheSameInstant() throws {
        let utc = try #require(RcloneListing.instant("2026-11-27T06:44:59.767536831Z"))
        let paris = try #require(RcloneListing.instant("2026-11-27T07:44:59.767536831+01:00"))
        #expect(utc.seconds == paris.seconds && utc.nanoseconds == 767_536_831 && paris.nanoseconds == 767_536_831)
        #expect(utc.seconds == 1_795_761_899)
        #expect(RcloneListing.instant("2026-11-27T06:44:59Z")?.nanoseconds == 0)
        #expect(RcloneListing.instant("2026-11-27T06:44:59.5Z")?.nanoseconds == 500_000_000)
        #expect(RcloneListing.instant("yesterday") == nil)
    }

    @Test func whatRcloneSaysIsCleanedOfSecrets() {
        let said = """
            2026/11/27 06:45:06 ERROR : papers: error listing: couldn't list files
            2026/11/27 06:45:06 Failed to lsjson: Get "https://jane:hunter22@dav.example.org/Papers/?X-Amz-Signature=abc123def&token=zzz": \
            Authorization: Bearer ya29.a0AfH6SMBx9Kq2LmN8pQrStUvWxYz01234567890abcdefGhIjKlMn access_token="1//0gLongOpaqueRefreshTokenValue0123456789" \
            password=swordfish \u{1B}]0;pwned\u{07} \u{1B}[2J
            """
        let cleaned = RcloneMessage.cleaned(said)
        for secret in ["hunter22", "jane:", "abc123def", "zzz", "ya29", "a0AfH6SMB", "1//0gLong", "RefreshTokenValue", "swordfish", "\u{1B}", "\u{07}"] {
            #expect(!cleaned.contains(secret), "\(secret) in: \(cleaned)")
        }
        #expect(cleaned.hasPrefix("Failed to lsjson: Get \"https://dav.example.org/Papers/?***"), "\(cleaned)")
        #expect(cleaned.count <= RcloneMessage.maximumLength + 1)
        // An error page quoted over several lines: rclone's last message, without its tags.
        let page = "2026/11/27 06:46:51 Failed to mkdir: <html>\n<head><title>403</title></head>\n</html>: 403 Forbidden"
        #expect(RcloneMessage.cleaned(page) == "Failed to mkdir: 403 : 403 Forbidden")
        #expect(RcloneMessage.cleaned(String(repeating: "word ", count: 500)).count == RcloneMessage.maximumLength + 1)
        #expect(RcloneMessage.cleaned("\n \n") == "")
    }

    @Test("A listing through rclone gives each file the same version until it changes; a changed one another")
    func listingVersionsAreStable() throws {
        let rig = try UploadRig(.rclone, files: ["library.bib": [1, 2, 3], "papers/a.pdf": [4, 5]])
        let first = try rig.transport.list("")
        #expect(first.map(\.path) == ["library.bib", "papers"])
        #expect(first.first?.size == 3 && first.last?.isFolder == true)
        #expect(try rig.transport.list("") == first)
        #expect(try rig.transport.list("papers").map(\.path) == ["papers/a.pdf"])
        Thread.sleep(forTimeInterval: 0.01)
        try rig.writeAsAnotherClient([9, 9, 9], to: "library.bib")
        let second = try rig.transport.list("")
        #expect(second.first?.version != first.first?.version)
        #expect(throws: TransportError.notFound("nothing")) { try rig.transport.list("nothing") }
    }
}

/// Many new files through one `rclone copy` (``RcloneBatchDownload``): every one arrives whole,
/// each in its own `.part`, reported as its own job.
@Suite("rclone batch downloads")
struct RcloneBatchDownloadTests {
    @Test("1,000 small files in one batch, six times: every job completed, every file byte for byte")
    func aThousandFilesAllArrive() throws {
        var files: [String: [UInt8]] = [:]
        for index in 0..<1000 { files[String(format: "papers/p%04d.pdf", index)] = patterned(200 + index % 97, seed: UInt8(index % 251)) }
        let rig = try UploadRig(.rclone, files: files)
        guard let transport = rig.transport as? RcloneTransport else {
            Issue.record("not an rclone transport")
            return
        }
        let paths = files.keys.sorted()
        for round in 0..<6 {
            let local = rig.root.appendingPathComponent("cache-\(round)/papers")
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            let jobs = try paths.map { path in
                DownloadJob(request: try transport.downloadRequest(path, from: 0),
                            destination: local.appendingPathComponent((path as NSString).lastPathComponent + ".part"))
            }
            var finished = 0
            let outcomes = transport.download(jobs, parallel: 4, progress: { _, _, _ in }, isCancelled: { false },
                                              finished: { _, _ in finished += 1 })
            #expect(finished == jobs.count)
            let failed = outcomes.enumerated().filter { if case .completed = $0.element { false } else { true } }
            #expect(failed.isEmpty, "round \(round): \(failed.count) of \(jobs.count) did not complete, first: \(failed.first.map { "\(paths[$0.offset]): \($0.element)" } ?? "")")
            for (job, path) in zip(jobs, paths) where (try? Data(contentsOf: job.destination)) != Data(files[path] ?? []) {
                Issue.record("round \(round): \(path) is not the remote's bytes")
                break
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: local.path).filter { $0.hasPrefix(".bibread-rclone") }
            #expect(left.isEmpty, "\(left)")
        }
    }
}
