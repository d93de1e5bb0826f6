import BibreadTestSupport
import Foundation
@testable import Reader
@testable import ReaderCore
import Testing

/// Rendered screens compared with files in `Tests/ReaderTests/Screens/`, as ratatui's buffer
/// assertions compare buffers: the text of every row and the style of every cell. Run with
/// `BIBREAD_RECORD_SNAPSHOTS=1` to write them anew after an intended change (then read the diff).
///
/// Each snapshot `NAME` is two files:
/// - `NAME.txt`, the rows as text with trailing spaces removed (`ScreenBuffer.text`);
/// - `NAME.style.txt`, the style layer: a legend (lines starting with `#`), where the cursor is,
///   then two grids with one character per cell, `width` columns by `height` rows, aligned
///   with the text: `roles:` (the `StyleRole` of each cell, e.g. `S` selection, `s` selection
///   in a pane without the focus, `E` error) and `emphasis:` (`B` bold, `U` underline, `+` both).
///   The second column of a wide character repeats the style of its first.
///
/// A difference names its rows, and for the style its columns and both roles, e.g.
/// `row 1, columns 0–19: expected s (selectionUnfocused), actual S (selection)`.
enum ScreenSnapshot {
    /// Compares the screen a harness shows now with the snapshot `name`.
    static func check(_ harness: ReaderHarness, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try check(harness.state.render(), named: name, sourceLocation: sourceLocation)
    }

    /// Compares `screen` with the snapshot `name`, text and style, after writing it anew when
    /// `BIBREAD_RECORD_SNAPSHOTS` is set.
    static func check(_ screen: ScreenBuffer, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if ProcessInfo.processInfo.environment["BIBREAD_RECORD_SNAPSHOTS"] != nil {
            try (screen.text + "\n").write(to: url(of: name, kind: "txt"), atomically: true, encoding: .utf8)
            try styleLayer(of: screen).write(to: url(of: name, kind: "style.txt"), atomically: true, encoding: .utf8)
        }
        for report in differences(of: screen, named: name) {
            Issue.record(Comment(rawValue: report), sourceLocation: sourceLocation)
        }
    }

    /// Where the file of snapshot `name` with extension `kind` lives.
    static func url(of name: String, kind: String) -> URL {
        Fixtures.repositoryRoot.appendingPathComponent("Tests/ReaderTests/Screens/\(name).\(kind)")
    }

    /// How `screen` differs from the stored snapshot `name`: one report for the text and one for
    /// the style when they differ, none when the screen matches. Only reads the files.
    static func differences(of screen: ScreenBuffer, named name: String) -> [String] {
        let checks: [(String, (ScreenBuffer, String, String) -> String?)] = [("txt", textDifferences), ("style.txt", styleDifferences)]
        return checks.compactMap { kind, compare in
            let url = url(of: name, kind: kind)
            guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
                return "no snapshot \(url.path); record it with BIBREAD_RECORD_SNAPSHOTS=1"
            }
            return compare(screen, stored, name)
        }
    }

    /// Names the rows whose text differs from the stored `NAME.txt`, or nil when none does.
    static func textDifferences(of screen: ScreenBuffer, from stored: String, named name: String) -> String? {
        let expected = stored.hasSuffix("\n") ? String(stored.dropLast()) : stored
        guard screen.text != expected else { return nil }
        let actualLines = screen.lines
        let expectedLines = expected.components(separatedBy: "\n")
        var report = ["screen \(name) differs from its snapshot:"]
        for row in 0..<max(actualLines.count, expectedLines.count) {
            let actual = row < actualLines.count ? actualLines[row] : "<none>"
            let wanted = row < expectedLines.count ? expectedLines[row] : "<none>"
            if actual != wanted { report += ["row \(row) expected: \(wanted)", "row \(row) actual:   \(actual)"] }
        }
        return report.joined(separator: "\n")
    }

    // MARK: - The style layer

    /// The character that stands for each role in a style layer. The switch is exhaustive, so a
    /// new role cannot be added without a character (and a line of the legend).
    static func symbol(for role: StyleRole) -> Character {
        switch role {
        case .normal: "."
        case .dim: "d"
        case .header: "h"
        case .border: "b"
        case .title: "t"
        case .accent: "a"
        case .selection: "S"
        case .selectionUnfocused: "s"
        case .status: "="
        case .statusKey: "k"
        case .searchBar: "/"
        case .searchMatch: "M"
        case .message: "m"
        case .error: "E"
        case .mark: "*"
        case .overlay: "o"
        }
    }

    /// The character for a cell's emphasis.
    static func symbol(bold: Bool, underline: Bool) -> Character {
        switch (bold, underline) {
        case (false, false): "."
        case (true, false): "B"
        case (false, true): "U"
        case (true, true): "+"
        }
    }

    /// What each character of the two grids means, for the legend and for naming differences.
    static let roleNames = Dictionary(uniqueKeysWithValues: StyleRole.allCases.map { (symbol(for: $0), "\($0)") })
    static let emphasisNames: [Character: String] = [".": "plain", "B": "bold", "U": "underline", "+": "bold and underline"]

    /// The legend at the top of every style layer, a few roles to a line.
    static var legend: [String] {
        let roles = StyleRole.allCases.map { "\(symbol(for: $0)) \($0)" }
        var lines = ["# Style layer: one character per cell, rows and columns as in the .txt beside it."]
        for start in stride(from: 0, to: roles.count, by: 6) {
            let part = roles[start..<min(roles.count, start + 6)].joined(separator: "  ")
            lines.append((start == 0 ? "# roles:    " : "#           ") + part)
        }
        let emphasis = ".BU+".map { "\($0) \(emphasisNames[$0] ?? "")" }.joined(separator: "  ")
        lines.append("# emphasis: " + emphasis)
        return lines
    }

    /// The style layer of `screen`, as stored in `NAME.style.txt`.
    static func styleLayer(of screen: ScreenBuffer) -> String {
        let sections = styleSections(of: screen)
        return (legend + [sections.cursor, "roles:"] + sections.roles + ["emphasis:"] + sections.emphasis)
            .joined(separator: "\n") + "\n"
    }

    /// The cursor line and the two grids of `screen`.
    private static func styleSections(of screen: ScreenBuffer) -> (cursor: String, roles: [String], emphasis: [String]) {
        let cursor = screen.cursor.map { "cursor: column \($0.x), row \($0.y)" } ?? "cursor: hidden"
        var roles: [String] = [], emphasis: [String] = []
        for row in 0..<screen.height {
            let cells = (0..<screen.width).map { screen[$0, row].style }
            roles.append(String(cells.map { symbol(for: $0.role) }))
            emphasis.append(String(cells.map { symbol(bold: $0.bold, underline: $0.underline) }))
        }
        return (cursor, roles, emphasis)
    }

    /// Names the cells whose style differs from the stored `NAME.style.txt` (row, columns, both
    /// roles or emphases), or nil when none does.
    static func styleDifferences(of screen: ScreenBuffer, from stored: String, named name: String) -> String? {
        let actual = styleLayer(of: screen)
        guard actual != stored else { return nil }
        var storedLines = stored.components(separatedBy: "\n")
        if storedLines.last == "" { storedLines.removeLast() }
        let header = legend.count
        guard storedLines.count > header, Array(storedLines[0..<header]) == legend,
              let rolesStart = storedLines.firstIndex(of: "roles:"),
              let emphasisStart = storedLines.firstIndex(of: "emphasis:"), rolesStart < emphasisStart else {
            return "style of screen \(name) differs from its snapshot, whose legend or layout is not today's; "
                + "record it again with BIBREAD_RECORD_SNAPSHOTS=1 and read the diff"
        }
        let sections = styleSections(of: screen)
        let text = screen.lines
        var report = ["style of screen \(name) differs from its snapshot:"]
        let storedCursor = storedLines[header]
        if storedCursor != sections.cursor { report.append("expected \(storedCursor), actual \(sections.cursor)") }
        let grids = [("", Array(storedLines[(rolesStart + 1)..<emphasisStart]), sections.roles, roleNames),
                     ("emphasis ", Array(storedLines[(emphasisStart + 1)...]), sections.emphasis, emphasisNames)]
        for (kind, expected, actual, names) in grids {
            report += gridDifferences(kind: kind, expected: expected, actual: actual, names: names, text: text)
        }
        return report.joined(separator: "\n")
    }

    /// The runs of cells, row by row, where two grids differ, with the row's text for context.
    private static func gridDifferences(kind: String, expected: [String], actual: [String], names: [Character: String],
                                        text: [String]) -> [String] {
        func describe(_ symbol: Character?) -> String {
            guard let symbol else { return "<none>" }
            return "\(symbol) (\(names[symbol] ?? "unknown"))"
        }
        var report: [String] = []
        for row in 0..<max(expected.count, actual.count) {
            let wanted = row < expected.count ? Array(expected[row]) : []
            let drawn = row < actual.count ? Array(actual[row]) : []
            guard wanted != drawn else { continue }
            var column = 0
            while column < max(wanted.count, drawn.count) {
                let pair = (column < wanted.count ? wanted[column] : nil, column < drawn.count ? drawn[column] : nil)
                guard pair.0 != pair.1 else { column += 1; continue }
                var end = column
                while end + 1 < max(wanted.count, drawn.count),
                      (end + 1 < wanted.count ? wanted[end + 1] : nil) == pair.0,
                      (end + 1 < drawn.count ? drawn[end + 1] : nil) == pair.1 { end += 1 }
                let columns = end == column ? "column \(column)" : "columns \(column)–\(end)"
                report.append("row \(row), \(columns): expected \(kind)\(describe(pair.0)), actual \(kind)\(describe(pair.1))")
                column = end + 1
            }
            if row < text.count { report.append("  row \(row) text: \(text[row])") }
        }
        return report
    }
}
