import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs programs on a small disk: a tmpfs of a chosen size mounted over a folder in a mount
/// namespace of their own (`unshare --mount`, and `--user --map-root-user` when the test is
/// not root). So the disk fills up for real (`ENOSPC`, SQLite's "database or disk is full"),
/// no root is needed where the kernel allows user namespaces, and the mount goes away with
/// the programs: a test killed midway leaves nothing mounted.
///
/// What the programs leave on the small disk goes with it: a test looks at it through steps
/// (`find`, `bibread cache status`) run in the same namespace.
public enum SmallDisk {
    /// One step, run in order in the namespace.
    public enum Step: Sendable {
        /// Runs a program; its status and output become one ``ProcessResult``.
        case run(URL, [String])
        /// Runs the `bibread` binary.
        case bibread([String])
        /// Makes the disk this many bytes (`mount -o remount,size=…`).
        case resize(bytes: Int)
    }

    /// Why small disks cannot be made here, or nil when they can.
    public static let unavailableReason: String? = probe()

    public static var isAvailable: Bool { unavailableReason == nil }

    /// Mounts a tmpfs of `bytes` over `folder` (which must exist) and runs `steps` there, with
    /// `environment` added to this process's; returns one result per program run, in order.
    public static func run(_ steps: [Step], on folder: URL, bytes: Int, environment: [String: String] = [:]) throws -> [ProcessResult] {
        let results = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: results) }
        var script = ["mount -t tmpfs -o size=\(bytes) bibread-test \(quoted(folder.path)) || exit 97"]
        var runs = 0
        for step in steps {
            switch step {
            case .run(let program, let arguments):
                script.append(command(program, arguments, results: results, index: runs))
                runs += 1
            case .bibread(let arguments):
                script.append(command(ProcessRunner.bibreadExecutable, arguments, results: results, index: runs))
                runs += 1
            case .resize(let size):
                script.append("mount -o remount,size=\(size) \(quoted(folder.path)) || exit 98")
            }
        }
        let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/unshare"), namespaceOptions + ["/bin/sh", "-c", script.joined(separator: "\n")],
                                            environment: environment)
        guard outcome.status == 0 else {
            throw SmallDiskError("the steps on a small disk did not run (status \(outcome.status)): \(outcome.standardError)")
        }
        return (0..<runs).map { index in
            func text(_ suffix: String) -> String {
                (try? String(contentsOf: results.appendingPathComponent("\(index).\(suffix)"), encoding: .utf8)) ?? ""
            }
            return ProcessResult(status: Int32(text("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
                                 standardOutput: text("out"), standardError: text("err"))
        }
    }

    /// `unshare`'s options: a mount namespace, and a user namespace where one is needed to mount.
    private static var namespaceOptions: [String] {
        getuid() == 0 ? ["--mount", "--propagation", "private"] : ["--user", "--map-root-user", "--mount", "--propagation", "private"]
    }

    private static func command(_ program: URL, _ arguments: [String], results: URL, index: Int) -> String {
        let output = results.appendingPathComponent("\(index)")
        return ([program.path] + arguments).map(quoted).joined(separator: " ")
            + " >\(quoted(output.path + ".out")) 2>\(quoted(output.path + ".err")); echo $? >\(quoted(output.path + ".status"))"
    }

    /// `text` as one word for sh.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func probe() -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return "no /usr/bin/unshare (util-linux)" }
        guard let folder = try? Fixtures.temporaryDirectory() else { return "no temporary folder" }
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = "mount -t tmpfs -o size=65536 bibread-test \(quoted(folder.path))"
        guard let result = try? ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/unshare"), namespaceOptions + ["/bin/sh", "-c", script]) else {
            return "unshare did not run"
        }
        return result.status == 0 ? nil : "cannot mount a tmpfs in a mount namespace (unshare \(namespaceOptions.joined(separator: " "))): \(result.standardError)"
    }
}

/// Steps on a small disk could not be run.
public struct SmallDiskError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
