import Foundation
import ReadingStateSync
import Testing

/// The log format: a round trip, and every kind of hostile log refused with its line, the state
/// left untouched.
@Suite struct StateLogTests {
    let laptop = MachineID(rawValue: "laptop")!

    var sample: [StateOperation] {
        let node = NodeID(rawValue: "n1")!
        return [
            StateOperation(timestamp: HybridTimestamp(wallMilliseconds: 1, counter: 0, machine: laptop),
                           change: .setPosition(fingerprint: "f", page: 250, scroll: 0.25)),
            StateOperation(timestamp: HybridTimestamp(wallMilliseconds: 2, counter: 0, machine: laptop),
                           change: .addNode(id: node, kind: .folder, parent: nil, position: "a", name: "Thesis", target: nil)),
            StateOperation(timestamp: HybridTimestamp(wallMilliseconds: 3, counter: 1, machine: laptop),
                           change: .setNote(citeKey: "f", page: 2, text: "line one\nline two", supersedes: [])),
        ]
    }

    /// The state after `sample`, then the log `text` refused with `message`, the state unchanged.
    func expectRefused(_ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        var state = ReadingStateReplica(operations: sample)
        let before = state
        #expect(throws: StateLogError.self, sourceLocation: sourceLocation) { try state.apply(log: Data(text.utf8)) }
        do {
            try state.apply(log: Data(text.utf8))
        } catch {
            #expect(error.description == message, sourceLocation: sourceLocation)
        }
        #expect(state == before, "a refused log changed the state", sourceLocation: sourceLocation)
    }

    var goodLine: String { String(decoding: StateLog.encode(sample.prefix(1)), as: UTF8.self) }

    @Test func aLogRoundTrips() throws {
        let data = StateLog.encode(sample)
        #expect(try StateLog.decode(data) == sample)
        var state = ReadingStateReplica()
        try state.apply(log: data)
        #expect(state == ReadingStateReplica(operations: sample))
        #expect(try StateLog.decode(Data()) == [])
    }

    @Test func garbageIsRefusedWithItsLine() {
        expectRefused(goodLine + "hello world\n", "line 2: not valid JSON (or a number out of range)")
        expectRefused(goodLine + "{}\n", "line 2: 'timestamp' is missing")
        expectRefused(goodLine + "\n", "line 2: the line is empty")
        expectRefused(goodLine.replacingOccurrences(of: "setPosition", with: "launchMissiles"),
                      "line 1: 'change' is not an operation this version knows")
    }

    @Test func twoOperationsWithOneTimestampAreRefused() {
        let other = goodLine.replacingOccurrences(of: "\"page\":250", with: "\"page\":9")
        expectRefused(goodLine + other, "line 2: the timestamp is the same as line 1's")
    }

    @Test func aTruncatedLogIsRefused() {
        let whole = goodLine + String(decoding: StateLog.encode(sample.dropFirst()), as: UTF8.self)
        expectRefused(String(whole.dropLast(10)), "line 3: the line is cut short (no end of line): the log is truncated")
        expectRefused(String(whole.dropLast(1)), "line 3: the line is cut short (no end of line): the log is truncated")
    }

    @Test func absurdValuesAreRefused() {
        expectRefused(goodLine.replacingOccurrences(of: "\"page\":250", with: "\"page\":0"), "line 1: the page 0 is not between 1 and 1000000")
        expectRefused(goodLine.replacingOccurrences(of: "\"page\":250", with: "\"page\":-3"), "line 1: the page -3 is not between 1 and 1000000")
        expectRefused(goodLine.replacingOccurrences(of: "\"page\":250", with: "\"page\":1e300"), "line 1: not valid JSON (or a number out of range)")
        expectRefused(goodLine.replacingOccurrences(of: "\"page\":250", with: "\"page\":\"250\""), "line 1: 'change.setPosition.page' has the wrong type or is out of range")
        expectRefused(goodLine.replacingOccurrences(of: "\"scroll\":0.25", with: "\"scroll\":7"), "line 1: the scroll 7.0 is not between 0 and 1")
        expectRefused(goodLine.replacingOccurrences(of: "\"fingerprint\":\"f\"", with: "\"fingerprint\":\"\(String(repeating: "x", count: 300))\""),
                      "line 1: the fingerprint is 300 characters, more than 256")
        expectRefused(goodLine.replacingOccurrences(of: "\"fingerprint\":\"f\"", with: "\"fingerprint\":\"a\\u001b[2Jb\""),
                      "line 1: the fingerprint holds a control character")
        expectRefused(goodLine.replacingOccurrences(of: "@laptop", with: "@../etc"),
                      "line 1: 'timestamp': the machine id holds a character other than a-z, 0-9 or -")
        expectRefused(goodLine.replacingOccurrences(of: "\"1.0@", with: "\"99999999999999999.0@"),
                      "line 1: 'timestamp': the wall time 99999999999999999 is not between 1970 and 3000")
        expectRefused(goodLine.replacingOccurrences(of: "\"1.0@", with: "\"1.-1@"),
                      "line 1: 'timestamp': not a timestamp (wall.counter@machine)")
    }

    @Test func hugeLinesAndLogsAreRefused() {
        let hugeName = String(repeating: "n", count: 70_000)
        expectRefused(goodLine + "{\"name\":\"\(hugeName)\"}\n", "line 2: the line is 70011 bytes, more than the 65536 allowed")
        let huge = Data(count: StateLog.maximumBytes + 1)
        #expect(throws: StateLogError(line: nil, problem: "the log is 67108865 bytes, more than the 67108864 bytes allowed")) {
            try StateLog.decode(huge)
        }
    }
}
