import Foundation

/// A seeded random generator (SplitMix64), so that a test can be random yet replayable.
///
/// `forTest(_:)` takes its seed from `BIBREAD_TEST_SEED` or at random, and prints it: a run that
/// fails names the seed that replays it exactly.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for the test `name`, seeded from `BIBREAD_TEST_SEED` or at random; the seed
    /// is printed and returned, for the test's failure messages.
    public static func forTest(_ name: String) -> (generator: SeededGenerator, seed: UInt64) {
        let seed = ProcessInfo.processInfo.environment["BIBREAD_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("\(name): seed \(seed) (replay with BIBREAD_TEST_SEED=\(seed))")
        return (SeededGenerator(seed: seed), seed)
    }
}
