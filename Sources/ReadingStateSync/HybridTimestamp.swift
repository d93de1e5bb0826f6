import Foundation

/// A hybrid logical clock timestamp: wall-clock milliseconds, a logical counter and the machine
/// that made it.
///
/// Timestamps are totally ordered by wall time, then counter, then machine id, so two machines
/// never make equal timestamps and every last-writer-wins choice is the same everywhere.
public struct HybridTimestamp: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Milliseconds since 1970 (the physical part, never behind the machine's own earlier ones).
    public let wallMilliseconds: Int64
    /// The logical counter that orders events within one millisecond.
    public let counter: UInt32
    /// The machine that made this timestamp.
    public let machine: MachineID

    /// The latest wall time a timestamp may carry (the year 3000), so a hostile log cannot pin
    /// every register with an absurd time.
    public static let latestWallMilliseconds: Int64 = 32_503_680_000_000

    /// A timestamp from its parts.
    public init(wallMilliseconds: Int64, counter: UInt32, machine: MachineID) {
        self.wallMilliseconds = wallMilliseconds
        self.counter = counter
        self.machine = machine
    }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        if lhs.wallMilliseconds != rhs.wallMilliseconds { return lhs.wallMilliseconds < rhs.wallMilliseconds }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.machine < rhs.machine
    }

    public var description: String { "\(wallMilliseconds).\(counter)@\(machine)" }

    /// The timestamp as text that sorts as timestamps do (the numbers zero-padded to a fixed
    /// width: `wall.counter@machine`), for an index of a database.
    public var sortKey: String {
        let wall = String(wallMilliseconds)
        let count = String(counter)
        return String(repeating: "0", count: max(0, 14 - wall.count)) + wall + "."
            + String(repeating: "0", count: max(0, 10 - count.count)) + count + "@" + machine.rawValue
    }

    /// Its coded form is its description, `wall.counter@machine` (one string: a log of 100,000
    /// operations reads markedly faster than with an object per timestamp).
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let stamp = HybridTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: Self.problem(with: text))
        }
        self = stamp
    }

    /// The timestamp written as `text` (its `description`), or nil when it is not one.
    public init?(_ text: String) {
        guard let at = text.firstIndex(of: "@"), let dot = text[..<at].firstIndex(of: "."),
              let wall = Int64(text[..<dot]), wall >= 0, wall <= Self.latestWallMilliseconds,
              let counter = UInt32(text[text.index(after: dot)..<at]),
              let machine = MachineID(rawValue: String(text[text.index(after: at)...])) else { return nil }
        self.init(wallMilliseconds: wall, counter: counter, machine: machine)
    }

    private static func problem(with text: String) -> String {
        let format = "not a timestamp (wall.counter@machine)"
        guard let at = text.firstIndex(of: "@"), let dot = text[..<at].firstIndex(of: "."),
              UInt32(text[text.index(after: dot)..<at]) != nil else { return format }
        guard let wall = Int64(text[..<dot]), wall >= 0, wall <= latestWallMilliseconds else {
            return "the wall time \(text[..<dot]) is not between 1970 and 3000"
        }
        return MachineID.problem(with: String(text[text.index(after: at)...])) ?? format
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
