import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program running in the background, to be killed with everything it started.
public final class BackgroundProcess {
    public let process = Process()

    public init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    public var hasEnded: Bool { !process.isRunning }

    /// SIGKILL to the process and every process it started (the `sftp` program and its `ssh`),
    /// as when the machine goes down, then waits until they have all ended, so that the remote
    /// is settled.
    public func killWithDescendants() {
        let descendants = Self.descendants(of: process.processIdentifier)
        kill(process.processIdentifier, SIGKILL)
        for pid in descendants { kill(pid, SIGKILL) }
        process.waitUntilExit()
        let deadline = Date().addingTimeInterval(60)
        while descendants.contains(where: { kill($0, 0) == 0 }) && Date() < deadline { usleep(20_000) }
    }

    private static func descendants(of pid: pid_t) -> [pid_t] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0) }
        }
        return children + children.flatMap { descendants(of: $0) }
    }
}
