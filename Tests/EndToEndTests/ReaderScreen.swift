import BibreadTestSupport
import Foundation

/// What the sample library holds, from the `bibread list --json` command (not from the screen),
/// so that what the reader shows can be checked against an independent source.
struct SampleLibrary: Sendable {
    struct Reference: Sendable {
        let key: String
        let title: String
        let year: String
    }

    static let path = Fixtures.samples.appendingPathComponent("library.bib").path

    let references: [Reference]

    /// The references `bibread list` prints for these extra arguments (`--search`, `--group`).
    init(_ arguments: [String] = []) async throws {
        let result = try await ToolRunner.run(ProcessRunner.bibreadExecutable.path, ["list", SampleLibrary.path, "--json"] + arguments,
                                              environment: ["COLUMNS": nil])
        guard result.status == 0 else {
            throw EndToEndFailure("bibread list \(arguments) failed (\(result.status)): \(result.standardError)")
        }
        guard let array = try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]] else {
            throw EndToEndFailure("bibread list --json printed no array: \(result.output.prefix(200))")
        }
        references = array.map {
            Reference(key: $0["key"] as? String ?? "", title: $0["title"] as? String ?? "", year: $0["year"] as? String ?? "")
        }
    }

    var keys: Set<String> { Set(references.map(\.key)) }

    /// The cite key a details title shows, which may be cut short with `…`.
    func key(fromTitle shown: String) -> String? {
        let matches = references.filter { Screen.matches(shown: shown, full: $0.key) }
        return matches.count == 1 ? matches[0].key : nil
    }

    /// The cite key of a list row, found by its year and (possibly cut) title.
    func key(of row: Screen.ListRow) -> String? {
        let matches = references.filter { $0.year == row.year && Screen.matches(shown: row.title, full: $0.title) }
        return matches.count == 1 ? matches[0].key : nil
    }
}

/// Reading the reader's screen (as `capture-pane` gives it) into its parts.
struct Screen {
    let text: String
    let rows: [String]

    init(_ text: String) {
        self.text = text
        rows = Tmux.rows(of: text)
    }

    /// A row of the reference list: its year and title columns.
    struct ListRow: Equatable {
        let year: String
        let title: String
    }

    /// Whether text shown on screen (perhaps ending in `…` where it was cut) stands for `full`.
    static func matches(shown: String, full: String) -> Bool {
        let trimmed = shown.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return false }
        if trimmed.hasSuffix("…") { return full.hasPrefix(String(trimmed.dropLast())) }
        return full == trimmed
    }

    /// The last row (the status line).
    var statusLine: String { rows.last ?? "" }

    /// The row above the status line (the search bar).
    var searchBar: String { rows.count >= 2 ? rows[rows.count - 2] : "" }

    /// The rows split into panes at the vertical rules.
    private func columns(_ row: String) -> [String] {
        row.split(separator: "│", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether the first row holds three pane titles (Groups │ References │ details).
    var hasThreePanes: Bool {
        guard let first = rows.first else { return false }
        let parts = columns(first)
        return parts.count == 3 && parts[0].contains("Groups") && parts[1].contains("References")
            && !parts[2].trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// In the three-pane layout: the details title (its first word, the cite key, possibly cut).
    var detailsTitleKey: String? {
        guard let first = rows.first else { return nil }
        let parts = columns(first)
        guard parts.count == 3 else { return nil }
        return Screen.citeKey(inTitle: parts[2])
    }

    /// In any layout: the cite keys of the rows that look like a details title (`KEY  @type` in
    /// the rightmost pane of the row).
    var detailsTitleKeys: [String] {
        rows.compactMap { row in
            let last = columns(row).last ?? row
            guard last.firstMatch(of: /^\s*\S+\s*@[a-z]+\s*$/) != nil else { return nil }
            return Screen.citeKey(inTitle: last)
        }
    }

    /// The cite key at the start of a details title such as `knuth1984texbook   @book` or
    /// `vanderberg2018hyphe…@mastersthesis`.
    static func citeKey(inTitle title: String) -> String? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard let word = trimmed.split(separator: " ").first else { return nil }
        if let cut = word.firstIndex(of: "…") { return String(word[...cut]) }
        if let at = word.firstIndex(of: "@"), at != word.startIndex { return String(word[..<at]) }
        return String(word)
    }

    /// In the three-pane layout: the rows of the Groups pane (below its title), trimmed.
    var groupRows: [String] {
        rows.dropFirst().dropLast(2).map { row in
            let parts = columns(row)
            return parts.count >= 2 ? parts[0].trimmingCharacters(in: .whitespaces) : ""
        }
    }

    /// The count the Groups pane shows for a group (nil while it still shows `…`).
    func groupCount(_ name: String) -> Int? {
        groupRows.lazy.compactMap { Screen.group(row: $0, named: name) }.first ?? nil
    }

    /// The position of a group among the Groups pane's rows (0 for the first).
    func groupIndex(_ name: String) -> Int? {
        groupRows.firstIndex { Screen.group(row: $0, named: name) != nil }
    }

    /// For a Groups row such as `Classics           3` (or `…` while counting): nil when the
    /// row is another group, else its count (itself nil while still counting).
    private static func group(row: String, named name: String) -> Int?? {
        guard row.hasPrefix(name + " ") else { return nil }
        let count = row.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        if count == "…" { return .some(nil) }
        guard let number = Int(count) else { return nil }
        return .some(number)
    }

    /// In the three-pane layout: the reference list's rows (below its column header).
    var listRows: [ListRow] {
        var result: [ListRow] = []
        for row in rows.dropFirst(2).dropLast(2) {
            let parts = columns(row)
            guard parts.count == 3 else { continue }
            let cell = parts[1]
            guard let match = cell.firstMatch(of: /\s(\d{4})\s(.*)$/) else { continue }
            result.append(ListRow(year: String(match.1), title: String(match.2).trimmingCharacters(in: .whitespaces)))
        }
        return result
    }

    /// How many times `text` occurs on the screen.
    func occurrences(of text: String) -> Int {
        self.text.components(separatedBy: text).count - 1
    }

    /// Cells a row takes on the terminal (East Asian wide characters take two).
    static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            let value = scalar.value
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return width
            default: break
            }
            let wide: [ClosedRange<UInt32>] = [
                0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
                0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
            ]
            return width + (wide.contains { $0.contains(value) } ? 2 : 1)
        }
    }
}
