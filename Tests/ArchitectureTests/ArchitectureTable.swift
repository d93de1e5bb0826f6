/// The rules of docs/ARCHITECTURE.md as a machine reads them: which modules each target, or a
/// folder or file inside one, may import, and which modules come from outside bibread.
///
/// The format (the document says it too): under the heading `## What each target may import`, a
/// Markdown table whose first column holds, in backticks, one or more targets (`Reader`) or paths
/// inside a target (`Reader/State`, `BibModel/Library/LibraryLoader.swift`), and whose column
/// `may import` holds, in backticks, every module they may import. Under `## Modules from outside
/// bibread`, a table whose first column names, in backticks, each module that is not a target.
/// Words outside backticks are for people and are not read.
struct ArchitectureTable {
    /// One row of the table: what the targets or paths it names may import.
    struct Rule {
        /// The targets or paths the row names.
        let keys: [String]
        /// The modules they may import.
        let allowed: Set<String>
        /// The row's line in the document, from 1.
        let line: Int
    }

    static let rulesHeading = "## What each target may import"
    static let externalsHeading = "## Modules from outside bibread"

    /// Every row, by each name in its first column.
    let rules: [String: Rule]
    /// The modules that are not targets of the package but may be imported (Foundation, GRDB, …).
    let externalModules: Set<String>

    /// Reads the tables of `document` (the text of docs/ARCHITECTURE.md).
    init(document: String) throws {
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var rules: [String: Rule] = [:]
        for row in try Self.table(under: Self.rulesHeading, in: lines) {
            let keys = Self.backticked(row.cells[0]).map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
            guard let column = row.header.firstIndex(where: { $0.lowercased() == "may import" }) else {
                throw ArchitectureError("docs/ARCHITECTURE.md: the table under '\(Self.rulesHeading)' has no column 'may import'")
            }
            guard !keys.isEmpty else {
                throw ArchitectureError("docs/ARCHITECTURE.md:\(row.line): the row names no target in backticks")
            }
            let rule = Rule(keys: keys, allowed: Set(Self.backticked(row.cells[column])), line: row.line)
            for key in keys {
                if let earlier = rules[key] {
                    throw ArchitectureError("docs/ARCHITECTURE.md:\(row.line): \(key) has a row already, on line \(earlier.line)")
                }
                rules[key] = rule
            }
        }
        self.rules = rules
        externalModules = Set(try Self.table(under: Self.externalsHeading, in: lines).flatMap { Self.backticked($0.cells[0]) })
    }

    /// The row that governs a source file: the one for the longest path that contains it
    /// (`Reader/State/Foo.swift` → `Reader/State` if it has a row, else `Reader`).
    func rule(forTarget target: String, file relativePath: String) -> (key: String, rule: Rule)? {
        var key = target
        var best = rules[target].map { (key: target, rule: $0) }
        for component in relativePath.split(separator: "/") {
            key += "/" + component
            if let rule = rules[key] { best = (key, rule) }
        }
        return best
    }

    /// A row of a Markdown table, its cells trimmed, with the table's header cells.
    private struct Row {
        let header: [String]
        let cells: [String]
        let line: Int
    }

    /// The rows of the first table after `heading` (not its header or separator).
    private static func table(under heading: String, in lines: [String]) throws -> [Row] {
        guard let start = lines.firstIndex(where: { $0.trimmingSpaces == heading }) else {
            throw ArchitectureError("docs/ARCHITECTURE.md has no heading '\(heading)'")
        }
        guard let top = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("|") }),
              lines[(start + 1)..<top].allSatisfy({ !$0.hasPrefix("#") }) else {
            throw ArchitectureError("docs/ARCHITECTURE.md has no table under '\(heading)'")
        }
        let header = cells(of: lines[top])
        var rows: [Row] = []
        var index = top + 2   // past the header and the |---| line
        while index < lines.count, lines[index].hasPrefix("|") {
            var row = cells(of: lines[index])
            row += Array(repeating: "", count: max(0, header.count - row.count))
            rows.append(Row(header: header, cells: row, line: index + 1))
            index += 1
        }
        return rows
    }

    private static func cells(of line: String) -> [String] {
        var parts = line.split(separator: "|", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        if parts.first == "" { parts.removeFirst() }
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The words in backticks in `text`.
    static func backticked(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}

extension String {
    /// The string without spaces and tabs at either end.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
