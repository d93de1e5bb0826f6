import BibreadTestSupport
import Foundation
import OpenWith
import Testing

/// A temporary folder of stand-in programs (shell scripts: the test's own tools, run as real
/// executables) that record the arguments they got, one per line, and their standard input.
struct StandInPrograms {
    let folder: URL

    init() throws {
        folder = try Fixtures.temporaryDirectory()
    }

    /// Removes the folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `PATH` holding only the folder.
    var path: String { folder.path }

    /// An environment with only the folder on `PATH`, and `HOME` inside it.
    var environment: [String: String] { ["PATH": folder.path, "HOME": folder.path] }

    /// The absolute path of a system tool the scripts use (their `PATH` holds only the folder).
    static func tool(_ name: String) throws -> String {
        try #require(Launcher.findExecutable(name, path: "/usr/bin:/bin"), "\(name) is needed by the tests")
    }

    /// Writes an executable script `name` with `body` (after `#!/bin/sh`).
    @discardableResult
    func addScript(_ name: String, body: String, mode: Int = 0o755) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url.path
    }

    /// Adds a recorder `name`: it writes its arguments to `name.argv` and its standard input to
    /// `name.stdin` (each renamed into place when complete), then runs `then`.
    @discardableResult
    func addRecorder(_ name: String, then: String = "") throws -> String {
        let cat = try StandInPrograms.tool("cat")
        let move = try StandInPrograms.tool("mv")
        let out = folder.appendingPathComponent(name).path
        return try addScript(name, body: """
        out='\(out)'
        for argument in "$@"; do printf '%s\\n' "$argument"; done > "$out.argv.tmp"
        \(cat) > "$out.stdin.tmp"
        \(move) "$out.stdin.tmp" "$out.stdin"
        \(move) "$out.argv.tmp" "$out.argv"
        \(then)
        """)
    }

    /// The arguments `name` recorded, waiting up to `timeout` seconds for them to appear.
    func recordedArguments(_ name: String, timeout: Double = 10) -> [String]? {
        guard let text = waitForFile("\(name).argv", timeout: timeout) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The standard input `name` recorded.
    func recordedInput(_ name: String, timeout: Double = 10) -> String? {
        waitForFile("\(name).stdin", timeout: timeout)
    }

    /// Removes what `name` recorded, before running it again.
    func clearRecords(_ name: String) {
        for suffix in ["argv", "stdin"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(name).\(suffix)"))
        }
    }

    /// The text of a file in the folder once it exists, or nil after `timeout` seconds.
    func waitForFile(_ name: String, timeout: Double = 10) -> String? {
        let url = folder.appendingPathComponent(name)
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            if let data = FileManager.default.contents(atPath: url.path) { return String(decoding: data, as: UTF8.self) }
            usleep(20_000)
        } while Date() < deadline
        return nil
    }

    /// Whether a file named `name` exists in the folder.
    func contains(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }
}

/// The shipped registry, which every test starts from.
func shippedRegistry(user: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> HandlerRegistry {
    let (registry, problems) = HandlerRegistry.load(user: user, userPath: "user.toml")
    #expect(problems == [], sourceLocation: sourceLocation)
    return registry
}
