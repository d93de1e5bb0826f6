import ArgumentParser
import BibModel
import BibreadValues
import ReaderCore
import SyncEngine

/// `bibread list`: every reference, one per line, or as JSON.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every reference: cite key, authors, year, title and citation.",
        discussion: """
        On a terminal the columns are aligned and cut to its width. When the output is piped, each \
        reference is one tab-separated line: key, authors, year, title, citation. --json prints the \
        documented JSON array instead.

        --search takes the query language of the reader: terms are ANDed; OR or |; -term or NOT \
        term; "quoted phrase"; parentheses; field:term for any field (aliases a: author, t: title, \
        y: year, k: key, kw: keywords, j: journal); ranges year:1990..2000, year:>2010. Matching \
        ignores case and accents, and words match by prefix (quant finds quantum). For example: \
        --search 'author:knuth tex -errata year:1984..1990'
        """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print a JSON array of references (see the README for the format).")
    var json = false

    @Option(help: ArgumentHelp("Only the references that match this query.", valueName: "query"))
    var search: String?

    @Option(help: ArgumentHelp("Only the members of this group (see 'bibread groups'; nested as Parent/Child).",
                               valueName: "name"))
    var group: String?

    func validate() throws {
        if library.libraries.isEmpty { throw ValidationError("name at least one .bib file") }
    }

    func run() throws {
        let query = try search.map(Self.parseQuery) ?? .all
        try Self.list(paths: library.paths, json: json, query: query, group: group)
    }

    /// Parses a query, or explains on standard error where it goes wrong and exits 64.
    static func parseQuery(_ text: String) throws -> Query {
        do {
            return try Query(parsing: text)
        } catch let error as QueryError {
            Console.error("bibread: invalid search: \(error.message)\n  \(text)\n  \(String(repeating: " ", count: error.column - 1))^")
            throw ExitCode(64)
        }
    }

    /// Prints the library at `paths` (the references matching `query`) in the form asked for.
    static func list(paths: [String], json: Bool, query: Query = .all, group groupName: String? = nil) throws {
        // The JSON gives every reference's line.
        let loaded = LoadedLibrary.load(paths: paths, preparingLineNumbers: json)
        defer { ExitReclaim.leave(loaded) }
        var entries = loaded.library.entries
        if let groupName {
            let groups = GroupCatalog.groups(of: loaded.library, synced: LinkedFileLocator.shared.isSynced(loaded.library))
            guard let group = Group.find(GroupID(path: groupName), in: groups) else {
                Console.error("bibread: no group '\(groupName)'; 'bibread groups \(paths.joined(separator: " "))' lists them")
                throw ExitStatus.problems
            }
            if let reason = group.unavailableReason {
                Console.error("bibread: group '\(group.name)': \(reason)")
                throw ExitStatus.problems
            }
            entries = group.members(in: loaded.library, context: GroupContext(library: loaded.library, locator: LinkedFileLocator.shared)).map { entries[$0] }
        }
        var pagesByAddress: [String: [FullTextPage]] = [:]
        if query != .all {
            let terms = query.fullTextTerms
            var fullText: FullTextResults?
            if !terms.isEmpty {
                fullText = try FullTextListing.results(for: terms, entries: entries)
            }
            // One query: reading the fields it names costs less than indexing every field.
            let matched = QueryScan.search(query, in: entries, fullText: fullText)
            for position in matched {
                if let pages = fullText?.pages[position] { pagesByAddress[entries[position].address] = pages }
            }
            entries = matched.map { entries[$0] }
        }
        let timer = PhaseTimer()
        defer { timer.lap("output") }
        if json {
            let pages = pagesByAddress
            if pages.isEmpty {
                ReferenceJSON.writeArray(entries) { Console.write($0) }
            } else {
                ReferenceJSON.writeArray(entries, extra: { (entry: Entry, json: inout JSONWriter) in
                    FullTextListing.writePages(pages[entry.address] ?? [], to: &json)
                }, output: { Console.write($0) })
            }
        } else if Console.isTerminal {
            ReferenceTable.printAligned(entries, width: Console.width)
            if !pagesByAddress.isEmpty {
                Console.print("")
                for entry in entries {
                    guard let pages = pagesByAddress[entry.address] else { continue }
                    Console.print(entry.address)
                    for page in pages { Console.print("  p. \(page.page): \(page.snippet)") }
                }
            }
        } else {
            ReferenceTable.printTabSeparated(entries)
        }
        loaded.summarizeDiagnostics(paths: paths)
        try loaded.exitIfSomeFilesFailed()
    }
}

/// Plain-text reference lists.
private enum ReferenceTable {
    static func printTabSeparated(_ entries: [Entry]) {
        ParallelRendering.render(entries, render: { chunk in
            var output = ByteBuffer(capacity: chunk.count * 160)
            for entry in chunk {
                let columns = [entry.address, entry.creators.display, entry.year ?? "", entry.title, entry.citation]
                // One line of five columns: a tab or a line end in a value is a space there.
                output.append(columns.map(TerminalText.cleanedLine).joined(separator: "\t"))
                output.append(0x0A)
            }
            return output
        }, output: Console.write)
    }

    static func printAligned(_ entries: [Entry], width: Int) {
        let keyWidth = min(24, max(3, entries.map { DisplayWidth.of($0.address) }.max() ?? 3))
        let authorWidth = width >= 100 ? 24 : 16
        let rest = max(10, width - keyWidth - authorWidth - 4 - 6)
        let titleWidth = rest * 3 / 5
        let citationWidth = rest - titleWidth - 2
        for entry in entries {
            // Cleaned before they are measured: each control character is one `�` wide.
            let column = TerminalText.cleanedLine
            let line = [
                DisplayWidth.pad(column(entry.address), to: keyWidth),
                DisplayWidth.pad(column(entry.creators.display), to: authorWidth),
                DisplayWidth.pad(column(entry.year ?? ""), to: 4),
                DisplayWidth.pad(column(entry.title), to: titleWidth),
                DisplayWidth.truncate(column(entry.citation), to: citationWidth),
            ].joined(separator: "  ")
            Console.print(line)
        }
    }
}
