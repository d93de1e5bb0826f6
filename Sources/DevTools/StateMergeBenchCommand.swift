import ArgumentParser
import Foundation
import BibreadServices
import ReadingStateSync

/// `bibread-dev state-merge-bench N`: the reading-state merge benchmark (issue 29). It makes N
/// operations on three machines (positions, read times, bookmarks added, renamed, moved and
/// removed, page notes; each machine's clock its own, one 2 hours behind), writes each machine's
/// log, then times reading the three logs and merging them into one state, as a sync will.
struct StateMergeBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state-merge-bench",
        abstract: "Time merging N reading-state operations from three machines (benchmark).",
        discussion: "Goal (issue 29): 100,000 operations merged in 1 s or less (release build).")

    @Argument(help: "How many operations to make.")
    var count = 100_000

    @Option(help: ArgumentHelp("Also write the three logs into this folder (for a comparison run on the same bytes).", valueName: "folder"))
    var logs: String?

    func run() throws {
        guard count > 0 else { throw ValidationError("The number of operations must be at least 1.") }
        let logs = Self.logs(operations: count)
        if let folder = self.logs {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, log) in logs.enumerated() { try log.write(to: URL(fileURLWithPath: folder).appendingPathComponent("machine-\(index + 1).jsonl")) }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var decoded: [[StateOperation]] = []
        for log in logs { decoded.append(try StateLog.decode(log)) }
        let afterDecoding = clock.now
        var state = ReadingStateReplica()
        for operations in decoded { state.apply(contentsOf: operations) }
        let end = clock.now
        let bytes = logs.reduce(0) { $0 + $1.count }
        print("\(count) operations from 3 machines (\(bytes) bytes of logs)")
        print("read the logs: \(Self.seconds(afterDecoding - start)) s")
        print("merged:        \(Self.seconds(end - afterDecoding)) s")
        print("total:         \(Self.seconds(end - start)) s (goal: 1 s for 100,000)")
        print("state: \(state.allPositions.count) positions, \(state.allReadTimes.count) read times, "
              + "\(state.nodes.count) nodes, \(state.allNotes.count) notes, \(state.reports.count) reports")
        // The whole merge a sync makes: the logs read and checked, the operations kept in
        // state.sqlite and the merged state written into the tables the reader reads, in one
        // transaction.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-state-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try ReadingStore(directory: folder)
        let storeStart = clock.now
        var files: [StateLogFile] = []
        for (index, log) in logs.enumerated() {
            files.append(StateLogFile(path: "log-\(index).jsonl", version: "size:\(log.count)", lines: try StateLog.decodeLines(log)))
        }
        let outcome = try store.merge(files, remote: "bench")
        let storeEnd = clock.now
        print("into state.sqlite (read, kept, merged, written for the reader; one transaction): \(Self.seconds(storeEnd - storeStart)) s, "
              + "\(outcome.newOperations) operations new")
    }

    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return String(format: "%.3f", Double(whole) + Double(attoseconds) / 1e18)
    }

    /// Three machines' logs holding `operations` operations in all, made in rounds in which
    /// each machine works offline and then sees the others' work.
    static func logs(operations: Int) -> [Data] {
        var generator = SystemRandomNumberGenerator()
        let names = ["laptop", "server", "desktop"]
        let twoHours: Int64 = 2 * 60 * 60 * 1000
        var clocks = names.compactMap { MachineID(rawValue: $0) }.map { HybridLogicalClock(machine: $0) }
        var written: [[StateOperation]] = [[], [], []]
        var nodes: [NodeID] = []
        var time: Int64 = 1_800_000_000_000
        for index in 0..<operations {
            let who = index % 3
            if index % 3_000 == 0 {
                // A sync: each machine has seen everything the others wrote.
                for latest in clocks.compactMap(\.latest) {
                    for machine in clocks.indices { _ = try? clocks[machine].receive(latest, wallClock: time) }
                }
            }
            time += Int64.random(in: 0...50, using: &generator)
            let stamp = clocks[who].now(wallClock: time - (who == 1 ? twoHours : 0))
            let fingerprint = "f\(Int.random(in: 0..<1_000, using: &generator))"
            let change: StateOperation.Change
            switch Int.random(in: 0..<20, using: &generator) {
            case 0..<8:
                change = .setPosition(fingerprint: fingerprint, page: Int.random(in: 1...500, using: &generator), scroll: 0.5)
            case 8..<12:
                change = .setReadTime(fingerprint: fingerprint, citeKey: "key\(Int.random(in: 0..<1_000, using: &generator))", readAt: time)
            case 12..<15, _ where nodes.isEmpty:
                let id = NodeID.random(using: &generator)
                nodes.append(id)
                change = .addNode(id: id, kind: .bookmark, parent: nodes.randomElement(using: &generator), position: "m",
                                  name: "bookmark \(index)", target: "key\(index)")
            case 15, 16:
                change = .renameNode(id: nodes.randomElement(using: &generator) ?? NodeID.random(), name: "renamed \(index)")
            case 17:
                change = .moveNode(id: nodes.randomElement(using: &generator) ?? NodeID.random(), parent: nil, position: "n")
            case 18:
                change = .removeNode(id: nodes.randomElement(using: &generator) ?? NodeID.random(), observedAdds: [], observedPlacement: nil)
            default:
                change = .setNote(citeKey: "key\(Int.random(in: 0..<1_000, using: &generator))", page: Int.random(in: 1...20, using: &generator),
                                  text: "note \(index)", supersedes: [])
            }
            written[who].append(StateOperation(timestamp: stamp, change: change))
        }
        return written.map { StateLog.encode($0) }
    }
}
