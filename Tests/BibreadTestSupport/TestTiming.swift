import Foundation

/// Time limits in tests that check "stops early" or "does not hang", stretched when the suite
/// runs slowly on purpose (under a sanitizer, `scripts/sanitize.sh` sets
/// `BIBREAD_TEST_TIME_SCALE`). The limits are generous bounds, not speed goals: those live in
/// the benchmarks.
public enum TestTiming {
    /// How much slower than usual this run may be (1 unless `BIBREAD_TEST_TIME_SCALE` says more).
    public static let scale: Double = {
        guard let text = ProcessInfo.processInfo.environment["BIBREAD_TEST_TIME_SCALE"],
              let value = Double(text), value >= 1 else { return 1 }
        return value
    }()

    /// `seconds`, stretched by `scale`.
    public static func seconds(_ seconds: Double) -> Double { seconds * scale }

    /// `duration`, stretched by `scale`.
    public static func duration(_ duration: Duration) -> Duration { duration * scale }
}
