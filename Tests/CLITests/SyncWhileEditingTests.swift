import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// A sync's push and edits of the same synced copy at the same moment, as real processes
/// against lighttpd: the push reads the copy, merges it with the remote's changes and replaces
/// it, and an edit falling in between must neither be lost nor undo the remote's changes. The
/// push holds the file's write lock (the one every edit takes) from its read to its write.
@Suite("sync while editing", .serialized)
struct SyncWhileEditingTests {
    /// Machine A tags three references word by word while it syncs again and again; machine B
    /// tags two others and syncs meanwhile, so that A's pushes merge. In the end every word of
    /// both is on the remote exactly once.
    @Test func editsDuringRepeatedSyncsAllReachTheRemoteOnce() throws {
        let setup = try TwoMachineSyncTests.Setup()
        for machine in [setup.machineA, setup.machineB] { try setup.succeed(machine, "sync", "lab") }
        let mine = ["knuth1984texbook", "lamport1994latex", "turing1936computable"]
        let theirs = ["shannon1948mathematical", "erdos1959random"]
        let rounds = 24
        let failures = Failures()
        let (machineA, machineB) = (setup.machineA, setup.machineB)
        let editing = DispatchGroup()
        var syncsOfA = 0
        DispatchQueue.global().async(group: editing) {
            for round in 0..<rounds {
                failures.note(try? ProcessRunner.bibread(["tag", "lab", mine[round % mine.count], "+a\(round)"], environment: machineA))
            }
        }
        DispatchQueue.global().async(group: editing) {
            for round in 0..<(rounds / 3) {
                failures.note(try? ProcessRunner.bibread(["tag", "lab", theirs[round % theirs.count], "+b\(round)"], environment: machineB))
                failures.note(try? ProcessRunner.bibread(["sync", "lab"], environment: machineB), sync: true)
            }
        }
        while editing.wait(timeout: .now()) == .timedOut {
            failures.note(try? setup.run(setup.machineA, ["sync", "lab"]), sync: true)
            syncsOfA += 1
        }
        for machine in [setup.machineA, setup.machineB, setup.machineA] { try setup.succeed(machine, "sync", "lab") }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(syncsOfA >= 3, "the syncs ran while A edited")
        print("editsDuringRepeatedSyncsAllReachTheRemoteOnce: \(syncsOfA) syncs of A; downloads refused while the other wrote: \(failures.refusals)")

        let remote = Library.parse([(path: "library.bib", bytes: Array(setup.remoteText.utf8))])
        func words(_ key: String) -> [String] {
            guard let entry = remote.entry(at: EntryAddress(key)) else { return [] }
            return (entry.raw("keywords") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        for round in 0..<rounds {
            let key = mine[round % mine.count]
            #expect(words(key).filter { $0 == "a\(round)" }.count == 1, "a\(round) on \(key): \(words(key))")
        }
        for round in 0..<(rounds / 3) {
            let key = theirs[round % theirs.count]
            #expect(words(key).filter { $0 == "b\(round)" }.count == 1, "b\(round) on \(key): \(words(key))")
        }
        #expect(setup.localText(setup.machineA) == setup.remoteText)
        let journal = try EditJournal(url: RemoteLocations(name: "lab", environment: setup.machineA).journal)
        #expect(try journal.pending().isEmpty)
        #expect(try journal.openConflicts().isEmpty)
    }

    /// The runs that failed, from several threads. A sync whose download was refused because
    /// the other machine or an edit here wrote meanwhile ("NOT replaced": the copy in use is
    /// kept, and the next sync tries again) is counted apart: that is the sync being careful.
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var failed: [String] = []
        private(set) var refusals = 0

        func note(_ result: ProcessResult?, sync: Bool = false) {
            lock.lock()
            defer { lock.unlock() }
            guard let result else { return failed.append("a run could not be started") }
            guard result.status != 0 else { return }
            let lines = result.standardError.split(separator: "\n")
            if sync, lines.contains(where: { $0.contains(": NOT replaced: ") }),
               !lines.contains(where: { $0.contains("were not pushed") }) {
                refusals += 1
            } else {
                failed.append(result.standardError)
            }
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return failed
        }
    }
}
