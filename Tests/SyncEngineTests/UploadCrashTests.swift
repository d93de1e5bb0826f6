import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

#if canImport(Glibc)
import Glibc
#endif

/// An upload killed with SIGKILL at a random moment leaves the remote file old or new, never a
/// part (issue 28): `bibread-dev upload`, the transport a push uses, against the real servers.
@Suite("uploads killed with SIGKILL")
struct UploadCrashTests {
    /// Rounds per kind of remote: `BIBREAD_STRESS_ROUNDS`, else 20.
    static var rounds: Int { Int(ProcessInfo.processInfo.environment["BIBREAD_STRESS_ROUNDS"] ?? "") ?? 20 }
    /// Large enough that an upload takes a while on the loopback: 12 MB over WebDAV, which
    /// hashes nothing on this side; 2 MB elsewhere, where the SHA-256 of the contents (Dropbox's
    /// content hash; the check and the version of SFTP and folders) takes a while in a debug build.
    static func size(_ kind: UploadRig.Kind) -> Int { kind == .webdav ? 12 * 1024 * 1024 : 2 * 1024 * 1024 }
    static let path = "library.bib"

    @Test("kill -9 during a large upload, again and again: the remote file is always the old or the new, and the next upload works",
          arguments: UploadRig.Kind.allCases)
    func killedUploadsLeaveOldOrNew(kind: UploadRig.Kind) throws {
        var random = SeededGenerator.forTest("killedUploadsLeaveOldOrNew-\(kind.rawValue)")
        var current = patterned(Self.size(kind), seed: 0)
        let rig = try UploadRig(kind, files: [Self.path: current])
        let payload = rig.root.appendingPathComponent("payload")

        // An upload left alone, to learn how long one takes here.
        var next = patterned(Self.size(kind) + 1, seed: 1)
        try Data(next).write(to: payload)
        let started = Date()
        let whole = try ProcessRunner.development(rig.uploadArguments(Self.path, from: payload, replacing: try version(rig)),
                                                  environment: rig.environment)
        let duration = Date().timeIntervalSince(started)
        #expect(whole.status == 0, "\(whole.standardError)")
        #expect(rig.remoteBytes(Self.path) == next)
        current = next

        var outcomes: [String: Int] = ["old": 0, "new": 0]
        var endedBeforeTheKill = 0
        var putBack = 0
        for round in 0..<Self.rounds {
            next = patterned(Self.size(kind) + (round % 3) * 4096, seed: UInt8(2 + round % 250))
            try Data(next).write(to: payload)
            let process = try BackgroundProcess(ProcessRunner.developmentExecutable,
                                                rig.uploadArguments(Self.path, from: payload, replacing: try version(rig)),
                                                environment: rig.environment)
            // Every other round, the kill comes as soon as the remote's folder starts to change
            // (a temporary file appears, the file is cut or grows), where a write in place or
            // a rename of a part would show; else at any moment of an upload's time.
            let atTheWrite = round % 2 == 0
            if kind.rawValue.hasPrefix("rclone") && round % 4 == 1 {
                // Every fourth round over rclone, as soon as the old file is moved aside: between
                // `moveto`'s two moves, where the file has no name of its own.
                let aside = rig.remoteRoot.appendingPathComponent(Self.path + ".bibread-replaced").path
                let deadline = Date().addingTimeInterval(duration * 3 + 5)
                while !FileManager.default.fileExists(atPath: aside) && !process.hasEnded && Date() < deadline { usleep(100) }
            } else if atTheWrite {
                let before = rig.folderState()
                let deadline = Date().addingTimeInterval(duration * 3 + 5)
                while rig.folderState() == before && !process.hasEnded && Date() < deadline { usleep(500) }
                usleep(UInt32.random(in: 0...2_000, using: &random.generator))
            } else {
                usleep(UInt32(Double.random(in: 0...(duration * 1.1), using: &random.generator) * 1_000_000))
            }
            if process.hasEnded { endedBeforeTheKill += 1 }
            process.killWithDescendants()
            // A server may still be putting in place a body it received whole.
            rig.waitUntilTheFolderSettles()
            var remote = rig.remoteBytes(Self.path)
            if remote == nil, kind.rawValue.hasPrefix("rclone") {
                // Killed between rclone's two moves: the old file is under its put-aside name
                // (`moveto --suffix`), and the next listing of the folder puts it back.
                #expect(rig.otherFiles(than: Self.path).contains { $0.hasSuffix(".bibread-replaced") },
                        "\(kind) round \(round): no file and nothing put aside: \(rig.otherFiles(than: Self.path))")
                _ = try rig.transport.list("")
                remote = rig.remoteBytes(Self.path)
                putBack += 1
            }
            let place = "\(kind) round \(round) (seed \(random.seed)), \(remote.map { "\($0.count) bytes" } ?? "no file")"
            if remote == current {
                outcomes["old", default: 0] += 1
            } else if remote == next {
                outcomes["new", default: 0] += 1
                current = next
            } else {
                Issue.record("\(place): the remote file is neither the old nor the new")
                return
            }
        }
        // The remote still takes uploads over the version it has.
        let last = patterned(1000, seed: 251)
        _ = try rig.transport.upload(last, to: Self.path, replacing: try version(rig))
        #expect(rig.remoteBytes(Self.path) == last)
        print("\(kind): \(Self.rounds) rounds, an upload takes \(String(format: "%.2f", duration)) s; old \(outcomes["old"] ?? 0), new \(outcomes["new"] ?? 0); ended before the kill: \(endedBeforeTheKill); put back by the next listing: \(putBack); left on the remote: \(rig.otherFiles(than: Self.path))")
    }

    private func version(_ rig: UploadRig) throws -> RemoteVersion {
        try #require(try rig.transport.download(Self.path)).version
    }
}
