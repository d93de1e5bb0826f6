import Foundation

/// Prints how long each phase took to standard error when `BIBREAD_TIMINGS` is set.
public final class PhaseTimer {
    /// Read once: a timer is made per phase, and Foundation builds the whole environment per read.
    private static let enabled = getenv("BIBREAD_TIMINGS") != nil
    private let enabled = PhaseTimer.enabled
    private var last = ContinuousClock.now

    public init() {}

    /// Reports the time since the previous lap (or creation) under `name`.
    public func lap(_ name: @autoclosure () -> String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let duration = now - last
        last = now
        let milliseconds = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
        let resident = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 4 / 1024 } ?? 0
        FileHandle.standardError.write(Data("timing: \(name()): \(String(format: "%.1f", milliseconds)) ms, \(resident) MB resident\n".utf8))
    }
}
