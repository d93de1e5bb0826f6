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

    private enum CodingKeys: String, CodingKey {
        case wallMilliseconds = "wall", counter, machine
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let wall = try container.decode(Int64.self, forKey: .wallMilliseconds)
        guard wall >= 0, wall <= Self.latestWallMilliseconds else {
            throw DecodingError.dataCorruptedError(forKey: .wallMilliseconds, in: container,
                                                   debugDescription: "the wall time \(wall) is not between 1970 and 3000")
        }
        wallMilliseconds = wall
        counter = try container.decode(UInt32.self, forKey: .counter)
        machine = try container.decode(MachineID.self, forKey: .machine)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(wallMilliseconds, forKey: .wallMilliseconds)
        try container.encode(counter, forKey: .counter)
        try container.encode(machine, forKey: .machine)
    }
}
