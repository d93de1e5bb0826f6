import Foundation

/// Where the tables of an array of tables (`[[handler]]`, `[[library]]`) and their keys are in
/// TOML text, so that problems found after parsing (TOMLKit gives places only for syntax errors)
/// can still say `file:line:col`. A sub-table's header after a table (`[library.path_mapping]`)
/// goes on with that table: its keys are the table's too.
///
/// A light line scanner: it knows comments and multi-line strings, which is enough for these
/// forms. The caller uses it only when it found as many headers as the parsed array has tables
/// (an inline `handler = [{…}]` array has none, and messages then name the entry instead).
/// (Text only: `OpenWith` and `BibreadServices` both read config.toml with it.)
public struct TOMLPlaces: Sendable {
    /// A 1-based line and column.
    public struct Place: Equatable, Sendable {
        public var line: Int
        public var column: Int
    }

    /// For each header found: its place, and the lines (0-based, half-open) its keys are on.
    private var tables: [(header: Place, body: Range<Int>)] = []
    private let lines: [Substring]

    /// Scans `text` for `[[arrayName]]` headers.
    public init(text: String, arrayName: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var openDelimiter: String?
        var current: (header: Place, start: Int)?
        for (number, rawLine) in lines.enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if let delimiter = openDelimiter {
                if TOMLPlaces.occurrences(of: delimiter, in: line) % 2 == 1 { openDelimiter = nil }
                continue
            }
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if trimmed.hasPrefix("[") {
                let bare = trimmed.prefix(while: { $0 != "#" }).filter { $0 != " " && $0 != "\t" }
                if current != nil, bare.hasPrefix("[\(arrayName).") { continue }
                if let open = current {
                    tables.append((open.header, open.start..<number))
                    current = nil
                }
                if bare == "[[\(arrayName)]]" {
                    current = (Place(line: number + 1, column: line.count - trimmed.count + 1), number + 1)
                }
                continue
            }
            for delimiter in ["\"\"\"", "'''"] where TOMLPlaces.occurrences(of: delimiter, in: line) % 2 == 1 {
                openDelimiter = delimiter
                break
            }
        }
        if let open = current { tables.append((open.header, open.start..<lines.count)) }
    }

    /// How many headers it found.
    public var count: Int { tables.count }

    /// The place of `key` in the `index`th table, else of that table's header.
    public func place(ofTable index: Int, key: String?) -> Place? {
        guard tables.indices.contains(index) else { return nil }
        let table = tables[index]
        guard let key else { return table.header }
        for number in table.body {
            let line = lines[number]
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix(key) else { continue }
            let rest = trimmed.dropFirst(key.count).drop(while: { $0 == " " || $0 == "\t" })
            if rest.hasPrefix("=") { return Place(line: number + 1, column: line.count - trimmed.count + 1) }
        }
        return table.header
    }

    private static func occurrences(of delimiter: String, in line: Substring) -> Int {
        var count = 0
        var rest = line[...]
        while let range = rest.range(of: delimiter) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }
}
