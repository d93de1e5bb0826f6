import Foundation

/// A hybrid logical clock (Kulkarni, Demirbas et al., "Logical Physical Clocks", 2014): each
/// timestamp it gives is greater than every timestamp it gave or received before, even when the
/// machine's wall clock goes backwards or another machine's runs ahead, and it stays close to
/// the wall clock.
///
/// Tolerated drift: a remote timestamp more than `maximumDrift` milliseconds ahead of this
/// machine's wall clock is refused by `receive(_:wallClock:)` (the clock is left unchanged), so
/// one machine whose clock says 2090 cannot drag every later timestamp into 2090. The operation
/// itself may still be merged; only this clock does not follow it. The default is 24 hours,
/// far more than the 2-hour skews seen between a laptop and a server.
public struct HybridLogicalClock: Sendable {
    /// The machine whose timestamps this clock makes.
    public let machine: MachineID
    /// How far ahead of the local wall clock (in milliseconds) a received timestamp may be.
    public let maximumDrift: Int64
    /// The greatest timestamp made or received so far (nil before the first).
    public private(set) var latest: HybridTimestamp?

    /// The default tolerated drift: 24 hours.
    public static let defaultMaximumDrift: Int64 = 24 * 60 * 60 * 1000

    /// A clock for `machine`, starting after `latest` when one is known (the last timestamp this
    /// machine wrote, so a restart never goes back).
    public init(machine: MachineID, latest: HybridTimestamp? = nil, maximumDrift: Int64 = defaultMaximumDrift) {
        self.machine = machine
        self.latest = latest
        self.maximumDrift = maximumDrift
    }

    /// A received timestamp that is too far ahead of the local wall clock.
    public struct DriftError: Error, Equatable, CustomStringConvertible {
        /// The refused timestamp.
        public let timestamp: HybridTimestamp
        /// How far ahead of the local clock it was, in milliseconds.
        public let aheadMilliseconds: Int64

        public var description: String {
            "the clock of machine \(timestamp.machine) is \(aheadMilliseconds / 1000) s ahead of this machine's, more than tolerated"
        }
    }

    /// The timestamp of a local event at wall time `wallClock` (milliseconds since 1970).
    public mutating func now(wallClock: Int64) -> HybridTimestamp {
        let next = advanced(wallClock: wallClock, remote: nil)
        latest = next
        return next
    }

    /// Takes in a timestamp received from another machine, so that the next local timestamp is
    /// later than it; throws `DriftError` (and changes nothing) when it is more than
    /// `maximumDrift` ahead of `wallClock`.
    @discardableResult
    public mutating func receive(_ remote: HybridTimestamp, wallClock: Int64) throws -> HybridTimestamp {
        let ahead = remote.wallMilliseconds - wallClock
        if ahead > maximumDrift { throw DriftError(timestamp: remote, aheadMilliseconds: ahead) }
        let next = advanced(wallClock: wallClock, remote: remote)
        latest = next
        return next
    }

    /// The HLC update rule: the physical part is the greatest of the wall clock, the last one
    /// and the remote one; the counter restarts at 0 when the wall clock alone is ahead, else
    /// goes one past the greatest counter at that physical time.
    private func advanced(wallClock: Int64, remote: HybridTimestamp?) -> HybridTimestamp {
        let lastWall = latest?.wallMilliseconds ?? Int64.min
        let remoteWall = remote?.wallMilliseconds ?? Int64.min
        let wall = max(wallClock, lastWall, remoteWall)
        var counter: UInt32 = 0
        if wall == lastWall, let latest { counter = max(counter, latest.counter &+ 1) }
        if wall == remoteWall, let remote { counter = max(counter, remote.counter &+ 1) }
        if counter == 0, wall == lastWall || wall == remoteWall {
            // The counter wrapped (4 billion events in one millisecond): move to the next one.
            return HybridTimestamp(wallMilliseconds: wall + 1, counter: 0, machine: machine)
        }
        return HybridTimestamp(wallMilliseconds: wall, counter: counter, machine: machine)
    }
}
