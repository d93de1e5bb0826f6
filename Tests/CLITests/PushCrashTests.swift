import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `bibread sync` killed with SIGKILL during its push, again and again, on a large library shared by two machines over lighttpd: the remote file is always
/// the old version or the new, whole; an edit whose upload did not land stays pending; and the
/// syncs after push every edit exactly once, a push repeated after a kill duplicating nothing.
@Suite("pushes killed with SIGKILL", .serialized)
struct PushCrashTests {
    /// Rounds: `BIBREAD_STRESS_ROUNDS`, else 30.
    static var rounds: Int { Int(ProcessInfo.processInfo.environment["BIBREAD_STRESS_ROUNDS"] ?? "") ?? 30 }
    static let mine = ["knuth1984texbook", "lamport1994latex", "turing1936computable"]
    static let theirs = ["shannon1948mathematical", "erdos1959random"]

    @Test func killedPushesLeaveTheRemoteOldOrNewAndEveryEditOnce() throws {
        var random = SeededGenerator.forTest("killedPushesLeaveTheRemoteOldOrNewAndEveryEditOnce")
        let setup = try TwoMachineSyncTests.Setup()
        let remoteFile = setup.remote.appendingPathComponent("library.bib")
        try Data(Self.large(from: try Data(contentsOf: remoteFile))).write(to: remoteFile)
        let entries = Self.parse(Array(try Data(contentsOf: remoteFile))).entries.count
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        let local = RemoteLocations(name: "lab", environment: setup.machineA).library.appendingPathComponent("library.bib")
        let journal = { try EditJournal(url: RemoteLocations(name: "lab", environment: setup.machineA).journal) }

        // A sync left alone, to learn how long one with an edit to push takes here.
        try setup.succeed(setup.machineA, "tag", "lab", Self.mine[0], "+warmup")
        let started = Date()
        try setup.succeed(setup.machineA, "sync", "lab")
        let duration = Date().timeIntervalSince(started)

        var outcomes = ["old": 0, "new": 0, "merged": 0]
        var bWords: [(key: String, word: String)] = []
        for round in 0..<Self.rounds {
            // Now and then the other machine changes the remote, so that the push merges.
            let merging = round % 6 == 3
            if merging {
                let key = Self.theirs[bWords.count % Self.theirs.count]
                try setup.succeed(setup.machineB, "tag", "lab", key, "+b\(round)")
                try setup.succeed(setup.machineB, "sync", "lab")
                bWords.append((key, "b\(round)"))
            }
            try setup.succeed(setup.machineA, "tag", "lab", Self.mine[round % Self.mine.count], "+a\(round)")
            let old = Self.settled(setup.remote)
            let here = Array(try Data(contentsOf: local))
            let sync = try BackgroundBibread(["sync", "lab"], environment: setup.machineA, scratch: setup.root)
            // Every other round the kill comes as soon as the remote's folder starts to change
            // (the upload has begun), 0 to 2 ms later; else at any moment of a sync's time.
            if round % 2 == 0 {
                let before = FolderState.of(setup.remote)
                let deadline = Date().addingTimeInterval(duration * 3 + 5)
                while FolderState.of(setup.remote) == before && sync.process.isRunning && Date() < deadline { usleep(200) }
                usleep(UInt32.random(in: 0...2_000, using: &random.generator))
            } else {
                usleep(UInt32(Double.random(in: 0...(duration * 1.1), using: &random.generator) * 1_000_000))
            }
            if !sync.process.isRunning { outcomes["ended before the kill", default: 0] += 1 }
            sync.send(SIGKILL)
            let ended = try sync.wait(seconds: 60)
            let remote = Self.settled(setup.remote)
            let place = "round \(round)\(merging ? " (merging)" : "") (seed \(random.seed))"
            let pending = try journal().pending().contains { $0.change.after?.contains("a\(round)") == true }
            if remote == old {
                outcomes["old", default: 0] += 1
                #expect(pending, "\(place): the upload did not land, and the edit is no longer pending: \(ended.standardError)")
            } else if remote == here {
                // The remote was the version the copy here came from: the push uploaded the copy.
                outcomes[pending ? "new, edit still pending" : "new", default: 0] += 1
            } else {
                // The new version is a merge (the other machine's change, or a version an
                // earlier killed push put there without keeping it as the base): whole, with
                // this round's word and the other machine's.
                let words = Self.words(in: remote)
                #expect(words[Self.mine[round % Self.mine.count]]?.contains("a\(round)") == true,
                        "\(place): the remote file is neither the old nor a version with a\(round) (\(remote.count) bytes)")
                if merging {
                    #expect(words[bWords[bWords.count - 1].key]?.contains("b\(round)") == true, "\(place): the merge lacks b\(round)")
                }
                outcomes[pending ? "merged, edit still pending" : "merged", default: 0] += 1
            }
            #expect(Self.parse(remote).entries.count == entries, "\(place): the remote file does not read whole")
        }

        // Clean syncs: every word on the remote once, nothing pending, both copies the remote's.
        for machine in [setup.machineA, setup.machineB, setup.machineA] { try setup.succeed(machine, "sync", "lab") }
        let final = Array(try Data(contentsOf: remoteFile))
        Self.expectEveryWordOnce(in: final, bWords: bWords)
        #expect(try journal().pending().isEmpty)
        #expect(Array(try Data(contentsOf: local)) == final)

        // A kill between the upload and the journal's note: the edits are pending again though
        // the remote has them. The next push puts the same values again: the same bytes.
        try Self.markPendingAgain(RemoteLocations(name: "lab", environment: setup.machineA).journal)
        #expect(try journal().pendingEditCount(file: "library.bib") > 0)
        try setup.succeed(setup.machineA, "sync", "lab")
        #expect(Array(try Data(contentsOf: remoteFile)) == final, "pushing the same edits again changes nothing")
        #expect(try journal().pending().isEmpty)
        print("killedPushesLeaveTheRemoteOldOrNewAndEveryEditOnce: \(Self.rounds) rounds, a sync takes \(String(format: "%.2f", duration)) s; \(outcomes)")
    }

    /// The sample library with references of large abstracts after it: about 2.5 MB (as the
    /// upload crash tests' SFTP and folder files: each write and push hashes it a few times,
    /// which takes a while in a debug build).
    static func large(from sample: Data) -> [UInt8] {
        var text = String(decoding: sample, as: UTF8.self)
        let line = "Words of a long abstract, written to make the library large enough that its upload takes a while.\n"
        let abstract = String(repeating: line, count: 1_000)
        for index in 0..<25 {
            text += "\n@article{large\(index),\n  title = {Large reference \(index)},\n  abstract = {\(abstract)},\n}\n"
        }
        return Array(text.utf8)
    }

    static func parse(_ bytes: [UInt8]) -> Library {
        Library.parse([(path: "library.bib", bytes: bytes)])
    }

    /// The keywords of the references whose words are tested, by key.
    static func words(in bytes: [UInt8]) -> [String: [String]] {
        let library = parse(bytes)
        var words: [String: [String]] = [:]
        for key in mine + theirs {
            let raw = library.entry(at: EntryAddress(key))?.raw("keywords") ?? ""
            words[key] = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return words
    }

    static func expectEveryWordOnce(in bytes: [UInt8], bWords: [(key: String, word: String)]) {
        let words = Self.words(in: bytes)
        var expected = bWords
        for round in 0..<rounds { expected.append((mine[round % mine.count], "a\(round)")) }
        for (key, word) in expected {
            #expect(words[key]?.filter { $0 == word }.count == 1, "\(word) on \(key): \(words[key] ?? [])")
        }
    }

    /// The remote's library file once lighttpd has finished with an upload whose client is
    /// gone: its folder unchanged for half a second (ten seconds at most).
    static func settled(_ folder: URL) -> [UInt8] {
        var last = FolderState.of(folder)
        var stableSince = Date()
        let deadline = Date().addingTimeInterval(10)
        while Date().timeIntervalSince(stableSince) < 0.5 && Date() < deadline {
            usleep(20_000)
            let now = FolderState.of(folder)
            if now != last { (last, stableSince) = (now, Date()) }
        }
        return Array((try? Data(contentsOf: folder.appendingPathComponent("library.bib"))) ?? Data())
    }

    /// Marks every edit of the journal at `url` not pushed, as a kill between the upload and
    /// the journal's transaction leaves them (python's sqlite3: the tests reach no SQLite).
    static func markPendingAgain(_ url: URL) throws {
        let script = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('UPDATE edit SET pushed_at = NULL'); c.commit()"
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, url.path])
        #expect(result.status == 0, "\(result.standardError)")
    }
}
