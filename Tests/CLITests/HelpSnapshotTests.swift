import Foundation
import Testing
import BibreadTestSupport

/// `--help` output is part of the interface: it is compared with files in `Snapshots/`.
/// Run with `BIBREAD_RECORD_SNAPSHOTS=1` to write new ones after an intended change.
@Suite("help snapshots")
struct HelpSnapshotTests {
    static let commands: [[String]] = [["--help"], ["list", "--help"], ["show", "--help"], ["read", "--help"], ["check", "--help"]]

    @Test(arguments: commands)
    func helpMatchesSnapshot(_ arguments: [String]) throws {
        let result = try ProcessRunner.bibread(arguments, environment: ["COLUMNS": "80"])
        #expect(result.status == 0)
        let name = (arguments.count > 1 ? arguments[0] : "bibread") + ".txt"
        let snapshot = Fixtures.repositoryRoot.appendingPathComponent("Tests/CLITests/Snapshots/\(name)")
        if ProcessInfo.processInfo.environment["BIBREAD_RECORD_SNAPSHOTS"] != nil {
            try result.standardOutput.write(to: snapshot, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: snapshot, encoding: .utf8)
        #expect(result.standardOutput == expected)
    }
}
