import BibreadTestSupport
import Foundation
import Testing

/// Rendered screens compared as text with files in `Tests/ReaderTests/Screens/`. Run with
/// `BIBREAD_RECORD_SNAPSHOTS=1` to write them anew after an intended change (then read the diff).
enum ScreenSnapshot {
    static func check(_ screen: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = Fixtures.repositoryRoot.appendingPathComponent("Tests/ReaderTests/Screens/\(name).txt")
        if ProcessInfo.processInfo.environment["BIBREAD_RECORD_SNAPSHOTS"] != nil {
            try (screen + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no snapshot \(url.path); record it with BIBREAD_RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
            return
        }
        let expected = stored.hasSuffix("\n") ? String(stored.dropLast()) : stored
        guard screen != expected else { return }
        // Name the rows that differ, as ratatui's buffer assertions do.
        let actualLines = screen.components(separatedBy: "\n")
        let expectedLines = expected.components(separatedBy: "\n")
        var report = ["screen \(name) differs from its snapshot:"]
        for row in 0..<max(actualLines.count, expectedLines.count) {
            let actual = row < actualLines.count ? actualLines[row] : "<none>"
            let wanted = row < expectedLines.count ? expectedLines[row] : "<none>"
            if actual != wanted { report += ["row \(row) expected: \(wanted)", "row \(row) actual:   \(actual)"] }
        }
        Issue.record(Comment(rawValue: report.joined(separator: "\n")), sourceLocation: sourceLocation)
    }
}
