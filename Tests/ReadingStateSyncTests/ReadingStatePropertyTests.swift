import BibreadTestSupport
import Foundation
import ReadingStateSync
import Testing

/// The CRDT's laws on random histories of three machines: one of them 2 hours behind, offline
/// stretches, syncs between random pairs, deliveries duplicated. Each run prints its seed
/// (`BIBREAD_TEST_SEED` replays it).
@Suite struct ReadingStatePropertyTests {
    /// One simulated machine: its clock, its wall-clock offset, what it has seen, what it wrote.
    struct Machine {
        var clock: HybridLogicalClock
        let offset: Int64
        var seen = ReadingStateReplica()
        var known: [StateOperation] = []
        var knownStamps: Set<HybridTimestamp> = []
        var written: [StateOperation] = []

        /// Keeps `operation` as known here (to pass on at the next sync), once.
        mutating func learn(_ operation: StateOperation) {
            if knownStamps.insert(operation.timestamp).inserted { known.append(operation) }
        }
    }

    static let fingerprints = ["fa", "fb", "fc"]
    static let citeKeys = ["knuth84", "lamport78", "shapiro11"]

    /// A random history; returns every operation written (in the order written) and the machines.
    static func history(steps: Int, using generator: inout SeededGenerator) -> (operations: [StateOperation], machines: [Machine]) {
        let twoHours: Int64 = 2 * 60 * 60 * 1000
        var machines = ["aaa", "bbb", "ccc"].enumerated().map { index, name in
            Machine(clock: HybridLogicalClock(machine: MachineID(rawValue: name)!), offset: index == 1 ? -twoHours : 0)
        }
        var time: Int64 = 1_800_000_000_000
        var all: [StateOperation] = []
        for _ in 0..<steps {
            time += Int64.random(in: 0...3_000, using: &generator)
            let who = Int.random(in: 0..<3, using: &generator)
            if Int.random(in: 0..<10, using: &generator) == 0 {
                // A sync from another machine: everything it has, some of it delivered twice.
                let from = (who + Int.random(in: 1...2, using: &generator)) % 3
                let delivered = machines[from].known
                let wall = time + machines[who].offset
                for operation in delivered + delivered.prefix(3) {
                    machines[who].seen.apply(operation)
                    _ = try? machines[who].clock.receive(operation.timestamp, wallClock: wall)
                }
                for operation in delivered { machines[who].learn(operation) }
                continue
            }
            // A wall clock that sometimes steps back a little.
            let jitter: Int64 = Int.random(in: 0..<8, using: &generator) == 0 ? -5_000 : 0
            let wall = time + machines[who].offset + jitter
            let change = randomChange(seen: machines[who].seen, using: &generator)
            let operation = StateOperation(timestamp: machines[who].clock.now(wallClock: wall), change: change)
            machines[who].seen.apply(operation)
            machines[who].written.append(operation)
            machines[who].learn(operation)
            all.append(operation)
        }
        return (all, machines)
    }

    static func randomChange(seen: ReadingStateReplica, using generator: inout SeededGenerator) -> StateOperation.Change {
        let nodes = seen.nodes
        let fingerprint = fingerprints.randomElement(using: &generator) ?? "fa"
        let page = Int.random(in: 1...5, using: &generator)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0:
            return .setPosition(fingerprint: fingerprint, page: Int.random(in: 1...400, using: &generator),
                                scroll: Double.random(in: 0...1, using: &generator))
        case 1:
            if Int.random(in: 0..<4, using: &generator) == 0 {
                return .setDeviceName(name: "machine \(Int.random(in: 0...9, using: &generator))")
            }
            return .setReadTime(fingerprint: fingerprint, citeKey: citeKeys.randomElement(using: &generator) ?? "k",
                                readAt: Int64.random(in: 0...1_000_000, using: &generator))
        case 2, 3:
            let kind: NodeKind = [.bookmark, .folder, .notemark].randomElement(using: &generator) ?? .bookmark
            return .addNode(id: NodeID.random(using: &generator), kind: kind, parent: nodes.randomElement(using: &generator)?.id,
                            position: String(Int.random(in: 0...99, using: &generator)), name: "n\(Int.random(in: 0...999, using: &generator))",
                            target: kind == .folder ? nil : citeKeys.randomElement(using: &generator))
        case 4:
            guard let node = nodes.randomElement(using: &generator) else { fallthrough }
            return .renameNode(id: node.id, name: "r\(Int.random(in: 0...999, using: &generator))")
        case 5:
            guard let node = nodes.randomElement(using: &generator) else { fallthrough }
            return .moveNode(id: node.id, parent: nodes.randomElement(using: &generator)?.id, position: String(Int.random(in: 0...99, using: &generator)))
        case 6:
            guard let node = nodes.randomElement(using: &generator) else { fallthrough }
            let observed = seen.observed(node: node.id)
            return .removeNode(id: node.id, observedAdds: observed.adds, observedPlacement: observed.placement)
        default:
            let text = Int.random(in: 0..<6, using: &generator) == 0 ? "" : "note \(Int.random(in: 0...999, using: &generator))"
            let citeKey = citeKeys.randomElement(using: &generator) ?? "k"
            return .setNote(citeKey: citeKey, page: page, text: text,
                            supersedes: seen.noteVersionsToSupersede(citeKey: citeKey, page: page))
        }
    }

    @Test func anyOrderAnyGroupingAndReplayGiveTheSameState() {
        var (generator, seed) = SeededGenerator.forTest("anyOrderAnyGroupingAndReplayGiveTheSameState")
        for round in 0..<20 {
            let (operations, _) = Self.history(steps: 300, using: &generator)
            let reference = ReadingStateReplica(operations: operations)
            for _ in 0..<4 {
                let shuffled = operations.shuffled(using: &generator)
                let permutationAgrees = ReadingStateReplica(operations: shuffled) == reference
                #expect(permutationAgrees, "seed \(seed), round \(round): a permutation differs")
                // (Each comparison is a Bool first, so a failure prints the seed, not two whole states.)
                // Three groups, merged as states in both groupings, and the whole log replayed twice.
                let cut1 = Int.random(in: 0...shuffled.count, using: &generator)
                let cut2 = Int.random(in: cut1...shuffled.count, using: &generator)
                let a = ReadingStateReplica(operations: shuffled[..<cut1])
                let b = ReadingStateReplica(operations: shuffled[cut1..<cut2])
                let c = ReadingStateReplica(operations: shuffled[cut2...])
                let leftGroupingAgrees = a.merging(b).merging(c) == reference
                #expect(leftGroupingAgrees, "seed \(seed), round \(round): (a+b)+c differs")
                let rightGroupingAgrees = a.merging(b.merging(c)) == reference
                #expect(rightGroupingAgrees, "seed \(seed), round \(round): a+(b+c) differs")
                let otherOrderAgrees = c.merging(a).merging(b) == reference
                #expect(otherOrderAgrees, "seed \(seed), round \(round): (c+a)+b differs")
                var twice = reference
                twice.apply(contentsOf: shuffled)
                twice.merge(a)
                let replayAgrees = twice == reference
                #expect(replayAgrees, "seed \(seed), round \(round): a replay changed the state")
            }
        }
    }

    @Test func noOperationIsLostAndEveryLastWriteIsTheGreatestTimestamp() {
        var (generator, seed) = SeededGenerator.forTest("noOperationIsLostAndEveryLastWriteIsTheGreatestTimestamp")
        for round in 0..<20 {
            let (operations, machines) = Self.history(steps: 400, using: &generator)
            let state = ReadingStateReplica(operations: operations)
            // Each machine's own timestamps only go up, the skewed one's too.
            for machine in machines {
                #expect(machine.written.map(\.timestamp) == machine.written.map(\.timestamp).sorted(), "seed \(seed), round \(round)")
            }
            var lastPosition: [String: StateOperation] = [:]
            var lastReadTime: [ReadKey: StateOperation] = [:]
            var lastName: [MachineID: StateOperation] = [:]
            var adds: [NodeID: Set<HybridTimestamp>] = [:]
            var removedAdds: [NodeID: Set<HybridTimestamp>] = [:]
            var noteVersions: [NotePage: [HybridTimestamp: String]] = [:]
            var superseded: Set<HybridTimestamp> = []
            for operation in operations {
                switch operation.change {
                case let .setPosition(fingerprint, _, _):
                    if lastPosition[fingerprint].map({ operation.timestamp > $0.timestamp }) ?? true { lastPosition[fingerprint] = operation }
                case let .setReadTime(fingerprint, citeKey, _):
                    let key = ReadKey(fingerprint: fingerprint, citeKey: citeKey)
                    if lastReadTime[key].map({ operation.timestamp > $0.timestamp }) ?? true { lastReadTime[key] = operation }
                case .setDeviceName:
                    let machine = operation.machine
                    if lastName[machine].map({ operation.timestamp > $0.timestamp }) ?? true { lastName[machine] = operation }
                case let .addNode(id, _, _, _, _, _):
                    adds[id, default: []].insert(operation.timestamp)
                case let .removeNode(id, observed, _):
                    removedAdds[id, default: []].formUnion(observed)
                case let .setNote(citeKey, page, text, supersedes):
                    noteVersions[NotePage(citeKey: citeKey, page: page), default: [:]][operation.timestamp] = text
                    superseded.formUnion(supersedes)
                case .renameNode, .moveNode:
                    break
                }
            }
            for (fingerprint, operation) in lastPosition {
                guard case let .setPosition(_, page, scroll) = operation.change else { continue }
                let position = state.position(fingerprint: fingerprint)
                #expect(position?.page == page && position?.scroll == scroll && position?.timestamp == operation.timestamp,
                        "seed \(seed), round \(round): the position of \(fingerprint) is not its last write")
            }
            for (key, operation) in lastReadTime {
                guard case let .setReadTime(_, _, readAt) = operation.change else { continue }
                #expect(state.readTime(fingerprint: key.fingerprint, citeKey: key.citeKey) == readAt,
                        "seed \(seed), round \(round): read time of \(key.citeKey) in \(key.fingerprint)")
            }
            for (machine, operation) in lastName {
                guard case let .setDeviceName(name) = operation.change else { continue }
                #expect(state.allDeviceNames[machine] == name, "seed \(seed), round \(round): the name of machine \(machine)")
            }
            for (id, stamps) in adds {
                let alive = !stamps.subtracting(removedAdds[id] ?? []).isEmpty
                #expect((state.node(id) != nil) == alive, "seed \(seed), round \(round): node \(id) should \(alive ? "" : "not ")exist")
            }
            #expect(state.nodes.count == adds.keys.filter { !(adds[$0] ?? []).subtracting(removedAdds[$0] ?? []).isEmpty }.count)
            for (page, versions) in noteVersions {
                let expected = versions.filter { !superseded.contains($0.key) && !$0.value.isEmpty }.keys.sorted()
                #expect(state.noteVersions(citeKey: page.citeKey, page: page.page).map(\.timestamp) == expected,
                        "seed \(seed), round \(round): note \(page.citeKey) p. \(page.page)")
            }
        }
    }

    @Test func aLaterChangeOnTheSkewedMachineWinsWhenItsClockSaysSo() {
        var (generator, seed) = SeededGenerator.forTest("aLaterChangeOnTheSkewedMachineWinsWhenItsClockSaysSo")
        for round in 0..<20 {
            var (operations, machines) = Self.history(steps: 200, using: &generator)
            // The skewed machine (2 h behind) syncs everything, then sets a position: it wins.
            var skewed = machines[1]
            let everything = operations
            let latestWall: Int64 = everything.map(\.timestamp.wallMilliseconds).max() ?? 0
            let twoHours: Int64 = 2 * 60 * 60 * 1000
            let wall: Int64 = latestWall + 1_000 - twoHours
            for operation in everything { _ = try? skewed.clock.receive(operation.timestamp, wallClock: wall) }
            let last = StateOperation(timestamp: skewed.clock.now(wallClock: wall), change: .setPosition(fingerprint: "fa", page: 321, scroll: 0))
            operations.append(last)
            machines[1] = skewed
            let state = ReadingStateReplica(operations: operations.shuffled(using: &generator))
            #expect(state.position(fingerprint: "fa")?.page == 321, "seed \(seed), round \(round)")
            #expect(state.position(fingerprint: "fa")?.timestamp.machine == skewed.clock.machine, "seed \(seed), round \(round)")
        }
    }
}
