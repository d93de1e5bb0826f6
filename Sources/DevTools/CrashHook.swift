import ArgumentParser
import Foundation

/// The crash `BIBREAD_TEST_CRASH` asks for, right after the first screen is drawn: the
/// end-to-end tests check that each gives the terminal back and reports itself
/// (ReaderEndToEndTests: fatalErrorRestoresTheTerminal, silentTrapOnAWorkerIsReported,
/// signalsEndAStuckLoop).
enum CrashHook: String, CaseIterable, Sendable {
    case fatalError = "fatal-error"
    case workerTrap = "worker-trap"
    case busyLoop = "busy-loop"

    static let variable = "BIBREAD_TEST_CRASH"

    /// The crash the environment asks for; nil when it asks for none.
    init?(environment: [String: String]) throws {
        guard let value = environment[Self.variable], !value.isEmpty else { return nil }
        guard let hook = CrashHook(rawValue: value) else {
            throw ValidationError("\(Self.variable) is '\(value)'; it takes \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = hook
    }

    /// Crashes (or, for `busyLoop`, never returns).
    func crash() {
        switch self {
        case .fatalError:
            Swift.fatalError("\(Self.variable)=\(rawValue): crashing on purpose after the first screen")
        case .workerTrap:
            DispatchQueue.global().async { raise(SIGILL) }
        case .busyLoop:
            var spins = 0
            while true { spins &+= 1 }
        }
    }
}
