import Foundation
import ReadingStateSync
import Testing

/// The merge rules of `ReadingStateReplica`, one at a time, with hand-made histories.
@Suite struct ReadingStateReplicaTests {
    let laptop = MachineID(rawValue: "laptop")!
    let desktop = MachineID(rawValue: "desktop")!
    let folder = NodeID(rawValue: "folder-1")!
    let mark = NodeID(rawValue: "mark-1")!

    func stamp(_ wall: Int64, _ machine: MachineID, counter: UInt32 = 0) -> HybridTimestamp {
        HybridTimestamp(wallMilliseconds: wall, counter: counter, machine: machine)
    }

    @Test func theLaterPositionWinsInEitherOrder() {
        let early = StateOperation(timestamp: stamp(1_000, laptop), change: .setPosition(fingerprint: "f", page: 3, scroll: 0))
        let late = StateOperation(timestamp: stamp(2_000, desktop), change: .setPosition(fingerprint: "f", page: 250, scroll: 0.5))
        let one = ReadingStateReplica(operations: [early, late])
        let other = ReadingStateReplica(operations: [late, early, late])
        #expect(one == other)
        #expect(one.position(fingerprint: "f")?.page == 250)
        #expect(one.position(fingerprint: "f")?.timestamp.machine == desktop)
    }

    @Test func aLaterChangeOnAMachineWhoseClockIsTwoHoursBehindWinsOnceItHasSeenTheEarlierOne() throws {
        let twoHours: Int64 = 2 * 60 * 60 * 1000
        let now: Int64 = 1_800_000_000_000
        var laptopClock = HybridLogicalClock(machine: laptop)
        var desktopClock = HybridLogicalClock(machine: desktop)
        let onLaptop = StateOperation(timestamp: laptopClock.now(wallClock: now),
                                      change: .setPosition(fingerprint: "f", page: 10, scroll: 0))
        try desktopClock.receive(onLaptop.timestamp, wallClock: now + 60_000 - twoHours)   // a sync
        let onDesktop = StateOperation(timestamp: desktopClock.now(wallClock: now + 120_000 - twoHours),
                                       change: .setPosition(fingerprint: "f", page: 20, scroll: 0))
        #expect(onDesktop.timestamp > onLaptop.timestamp)
        let state = ReadingStateReplica(operations: [onDesktop, onLaptop])
        #expect(state.position(fingerprint: "f")?.page == 20)
    }

    @Test func aConcurrentReAddSurvivesARemoveThatDidNotSeeIt() {
        let add = StateOperation(timestamp: stamp(1, laptop), change: .addNode(id: mark, kind: .bookmark, parent: nil, position: "a", name: "Paper", target: "knuth84"))
        let remove = StateOperation(timestamp: stamp(3, laptop), change: .removeNode(id: mark, observedAdds: [add.timestamp], observedPlacement: add.timestamp))
        let reAdd = StateOperation(timestamp: stamp(2, desktop), change: .addNode(id: mark, kind: .bookmark, parent: nil, position: "b", name: "Paper", target: "knuth84"))
        #expect(ReadingStateReplica(operations: [add, remove]).node(mark) == nil)
        let state = ReadingStateReplica(operations: [reAdd, remove, add])
        #expect(state.node(mark)?.name == "Paper")
        #expect(state == ReadingStateReplica(operations: [add, remove, reAdd]))
    }

    @Test func aFolderRenamedOnOneMachineAndFilledOnTheOtherIsRenamedAndFilled() {
        let add = StateOperation(timestamp: stamp(1, laptop), change: .addNode(id: folder, kind: .folder, parent: nil, position: "a", name: "To read", target: nil))
        let rename = StateOperation(timestamp: stamp(5, laptop), change: .renameNode(id: folder, name: "Thesis"))
        let fill = StateOperation(timestamp: stamp(4, desktop), change: .addNode(id: mark, kind: .bookmark, parent: folder, position: "a", name: "Paper", target: "k"))
        let state = ReadingStateReplica(operations: [fill, rename, add])
        #expect(state.node(folder)?.name == "Thesis")
        #expect(state.node(mark)?.parent == folder)
    }

    @Test func deletedOnOneMachineAndMovedOnTheOtherStaysDeletedAndTheMoveIsReported() {
        let add = StateOperation(timestamp: stamp(1, laptop), change: .addNode(id: mark, kind: .bookmark, parent: nil, position: "a", name: "Paper", target: "k"))
        let move = StateOperation(timestamp: stamp(6, desktop), change: .moveNode(id: mark, parent: folder, position: "z"))
        let remove = StateOperation(timestamp: stamp(5, laptop), change: .removeNode(id: mark, observedAdds: [add.timestamp], observedPlacement: add.timestamp))
        let state = ReadingStateReplica(operations: [move, remove, add])
        #expect(state.node(mark) == nil)
        #expect(state.reports == [.movedNodeWasDeleted(id: mark, name: "Paper", mover: desktop)])
        #expect(state.reports.first?.description == "\"Paper\" was moved on machine desktop but deleted on another machine: it stays deleted")
        // A remove that had seen the move reports nothing.
        let seen = StateOperation(timestamp: stamp(7, laptop), change: .removeNode(id: mark, observedAdds: [add.timestamp], observedPlacement: move.timestamp))
        #expect(ReadingStateReplica(operations: [add, move, seen]).reports.isEmpty)
    }

    @Test func concurrentNoteEditsKeepBothVersionsUntilAWriteThatSawBoth() {
        let key = (fingerprint: "f", page: 7)
        let first = StateOperation(timestamp: stamp(1, laptop), change: .setNote(citeKey: key.fingerprint, page: key.page, text: "start", supersedes: []))
        let onLaptop = StateOperation(timestamp: stamp(3, laptop), change: .setNote(citeKey: "f", page: 7, text: "laptop text", supersedes: [first.timestamp]))
        let onDesktop = StateOperation(timestamp: stamp(2, desktop), change: .setNote(citeKey: "f", page: 7, text: "desktop text", supersedes: [first.timestamp]))
        var state = ReadingStateReplica(operations: [onDesktop, first, onLaptop])
        #expect(state.noteVersions(citeKey: "f", page: 7).map(\.text) == ["desktop text", "laptop text"])
        #expect(state.reports == [.noteHasVersions(citeKey: "f", page: 7, count: 2)])
        let merged = StateOperation(timestamp: stamp(9, desktop), change: .setNote(citeKey: "f", page: 7, text: "both",
                                                                                   supersedes: state.noteVersionsToSupersede(citeKey: "f", page: 7)))
        state.apply(merged)
        #expect(state.noteVersions(citeKey: "f", page: 7).map(\.text) == ["both"])
        #expect(state.reports.isEmpty)
    }

    @Test func operationsOnNodesThatDoNotExistChangeNothingVisible() {
        let ghost = NodeID(rawValue: "ghost")!
        let state = ReadingStateReplica(operations: [
            StateOperation(timestamp: stamp(1, laptop), change: .renameNode(id: ghost, name: "x")),
            StateOperation(timestamp: stamp(2, laptop), change: .moveNode(id: ghost, parent: folder, position: "a")),
            StateOperation(timestamp: stamp(3, laptop), change: .removeNode(id: ghost, observedAdds: [], observedPlacement: nil)),
        ])
        #expect(state.nodes.isEmpty)
        #expect(state.node(ghost) == nil)
    }
}
