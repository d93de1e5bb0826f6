import Foundation
import ReadingStateSync
import Testing

@Suite struct HybridLogicalClockTests {
    let laptop = MachineID(rawValue: "laptop")!
    let server = MachineID(rawValue: "server")!

    @Test func localTimestampsIncreaseWhenTheWallClockGoesBackwards() {
        var clock = HybridLogicalClock(machine: laptop)
        let first = clock.now(wallClock: 10_000)
        let second = clock.now(wallClock: 9_000)   // the wall clock was set back
        let third = clock.now(wallClock: 9_500)
        #expect(first < second && second < third)
        #expect(second.wallMilliseconds == 10_000 && second.counter == 1)
        let fourth = clock.now(wallClock: 20_000)
        #expect(fourth.wallMilliseconds == 20_000 && fourth.counter == 0)
    }

    @Test func aReceivedTimestampAheadMakesTheNextLocalOneLater() throws {
        var clock = HybridLogicalClock(machine: laptop)
        _ = clock.now(wallClock: 1_000)
        let remote = HybridTimestamp(wallMilliseconds: 5_000, counter: 7, machine: server)
        try clock.receive(remote, wallClock: 1_200)
        let next = clock.now(wallClock: 1_300)
        #expect(next > remote)
        #expect(next.wallMilliseconds == 5_000 && next.counter == 9)
    }

    @Test func aTimestampTooFarAheadIsRefusedAndTheClockIsUnchanged() {
        var clock = HybridLogicalClock(machine: laptop, maximumDrift: 60_000)
        let before = clock.now(wallClock: 1_000)
        let remote = HybridTimestamp(wallMilliseconds: 1_000 + 61_000, counter: 0, machine: server)
        #expect(throws: HybridLogicalClock.DriftError.self) { try clock.receive(remote, wallClock: 1_000) }
        #expect(clock.latest == before)
    }

    @Test func timestampsOrderByWallThenCounterThenMachine() {
        let a = HybridTimestamp(wallMilliseconds: 1, counter: 5, machine: server)
        let b = HybridTimestamp(wallMilliseconds: 2, counter: 0, machine: laptop)
        let c = HybridTimestamp(wallMilliseconds: 2, counter: 1, machine: laptop)
        let d = HybridTimestamp(wallMilliseconds: 2, counter: 1, machine: server)
        #expect([d, c, b, a].sorted() == [a, b, c, d])
    }

    @Test func machineIDsAreRandomAndChecked() {
        #expect(MachineID.random() != MachineID.random())
        #expect(MachineID.random().rawValue.count == 32)
        #expect(MachineID(rawValue: "") == nil)
        #expect(MachineID(rawValue: "Laptop") == nil)
        #expect(MachineID(rawValue: "a\u{1b}b") == nil)
        #expect(MachineID(rawValue: String(repeating: "a", count: 65)) == nil)
    }
}
