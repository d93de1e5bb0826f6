import ArgumentParser
import BibModel
import Reader

/// `bibread list`: every reference, one per line, or as JSON.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every reference: cite key, authors, year, title and citation.",
        discussion: """
        On a terminal the columns are aligned and cut to its width. When the output is piped, each \
        reference is one tab-separated line: key, authors, year, title, citation. --json prints the \
        documented JSON array instead.
        """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print a JSON array of references (see the README for the format).")
    var json = false

    func validate() throws {
        if library.libraries.isEmpty { throw ValidationError("name at least one .bib file") }
    }

    func run() throws {
        try Self.list(paths: library.libraries, json: json)
    }

    /// Prints the library at `paths` in the form the output calls for.
    static func list(paths: [String], json: Bool) throws {
        let loaded = LoadedLibrary.load(paths: paths)
        let entries = loaded.library.entries
        let timer = PhaseTimer()
        defer { timer.lap("output") }
        if json {
            ReferenceJSON.writeArray(entries) { Console.write($0) }
        } else if Console.isTerminal {
            ReferenceTable.printAligned(entries, width: Console.width)
        } else {
            ReferenceTable.printTabSeparated(entries)
        }
        loaded.summarizeDiagnostics(paths: paths)
        try loaded.exitIfSomeFilesFailed()
    }
}

/// Plain-text reference lists.
enum ReferenceTable {
    static func printTabSeparated(_ entries: [Entry]) {
        var output: [UInt8] = []
        output.reserveCapacity(entries.count * 160)
        for entry in entries {
            let columns = [entry.address, entry.creators.display, entry.year ?? "", entry.title, entry.citation]
            let line = columns.map { $0.replacingTabs }.joined(separator: "\t")
            output.append(contentsOf: line.utf8)
            output.append(0x0A)
            if output.count > 1 << 20 {
                Console.write(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        Console.write(output)
    }

    static func printAligned(_ entries: [Entry], width: Int) {
        let keyWidth = min(24, max(3, entries.map { DisplayWidth.of($0.address) }.max() ?? 3))
        let authorWidth = width >= 100 ? 24 : 16
        let rest = max(10, width - keyWidth - authorWidth - 4 - 6)
        let titleWidth = rest * 3 / 5
        let citationWidth = rest - titleWidth - 2
        for entry in entries {
            let line = [
                DisplayWidth.pad(entry.address, to: keyWidth),
                DisplayWidth.pad(entry.creators.display, to: authorWidth),
                DisplayWidth.pad(entry.year ?? "", to: 4),
                DisplayWidth.pad(entry.title, to: titleWidth),
                DisplayWidth.truncate(entry.citation, to: citationWidth),
            ].joined(separator: "  ")
            Console.print(line)
        }
    }
}

extension String {
    var replacingTabs: String {
        contains("\t") || contains("\n") ? replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") : self
    }
}
