import ArgumentParser
import BibModel
import ReaderCore
import SyncEngine

/// `bibread show`: one reference with every field decoded and its linked files resolved.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one reference: every field decoded, linked files resolved.",
        discussion: """
        The last argument is the cite key (case-insensitive). When two entries share a key, the \
        second is addressed as KEY#2.
        """)

    @Argument(help: ArgumentHelp("BibTeX files, then the cite key.", valueName: "library.bib... key"))
    var arguments: [String] = []

    @Flag(help: "Print the reference as a JSON object (see the README for the format).")
    var json = false

    func validate() throws {
        if arguments.count < 2 { throw ValidationError("name one or more .bib files and then a cite key") }
    }

    func run() throws {
        let paths = try RemoteResolution.libraryPaths(Array(arguments.dropLast()))
        let key = arguments[arguments.count - 1]
        let loaded = LoadedLibrary.load(paths: paths)
        let entry = try loaded.entry(addressedBy: key, paths: paths)
        let sameKey = loaded.library.entries(withKey: entry.key)
        if sameKey.count > 1 && entry.occurrence == 1 && !key.contains("#") {
            Console.error("bibread: note: \(sameKey.count) entries have the key '\(entry.key)'; showing the first (the others are \(sameKey.dropFirst().map(\.address).joined(separator: ", ")))")
        }
        if json {
            var writer = JSONWriter()
            defer { writer.deallocate() }
            ReferenceJSON.write(entry, to: &writer)
            writer.newline()
            Console.write(writer.bytes)
        } else {
            Console.print(Self.render(entry, width: Console.isTerminal ? Console.width : 100))
        }
        try loaded.exitIfSomeFilesFailed()
    }

    /// The text form: a heading, the main facts, every field, files and links. Every value
    /// from the file is cleaned to one line (`TerminalText`) before it is measured and wrapped.
    static func render(_ entry: Entry, width: Int) -> String {
        let line = TerminalText.cleanedLine
        var lines: [String] = []
        lines.append(line("\(entry.address)  @\(entry.type)  \(entry.source.path):\(entry.location.line)"))
        let labelWidth = 10
        func add(_ label: String, _ value: String) {
            guard !value.isEmpty else { return }
            let wrapped = DisplayWidth.wrap(line(value), to: max(20, width - labelWidth - 2))
            for (index, line) in wrapped.enumerated() {
                lines.append((index == 0 ? DisplayWidth.pad(label, to: labelWidth) : String(repeating: " ", count: labelWidth)) + "  " + line)
            }
        }
        lines.append("")
        add("Authors", entry.authors.names.map(\.fullName).joined(separator: "; ") + (entry.authors.hasOthers ? "; et al." : ""))
        add("Editors", entry.editors.names.map(\.fullName).joined(separator: "; ") + (entry.editors.hasOthers ? "; et al." : ""))
        add("Title", entry.title)
        add("Year", entry.year ?? "")
        add("Citation", entry.citation)
        let links = entry.links
        if !links.files.isEmpty {
            lines.append("")
            lines.append("Files")
            for file in links.files {
                let here = LinkedFileLocator.shared.location(of: file).isHere
                lines.append(line("  \(here ? "✓" : "✗") \(file.path)\(here ? "" : "  (missing)")"))
            }
        }
        if !links.urls.isEmpty {
            lines.append("")
            lines.append("Links")
            for url in links.urls { lines.append(line("  \(url)")) }
        }
        for problem in links.problems {
            lines.append(line("  ! \(problem.field): \(problem.message)"))
        }
        lines.append("")
        lines.append("Fields")
        let nameWidth = min(18, entry.fields.map { DisplayWidth.of(entry.spelledName(of: $0)) }.max() ?? 8)
        for field in entry.fields {
            let value = entry.decodedText(of: field)
            let note = entry.parent(of: field).map { "  (from \($0))" } ?? ""
            let valueWidth = max(20, width - nameWidth - 4)
            let wrapped = DisplayWidth.wrap(line(value + note), to: valueWidth)
            let spelled = line(entry.spelledName(of: field))
            for (index, text) in wrapped.enumerated() {
                let name = index == 0 ? DisplayWidth.pad(spelled, to: nameWidth) : String(repeating: " ", count: nameWidth)
                lines.append("  \(name)  \(text)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Up to three keys that contain or start like `key`, for a helpful message.
    static func similarKeys(to key: String, in library: Library) -> [String] {
        let folded = key.lowercased()
        guard folded.count >= 2 else { return [] }
        let prefix = String(folded.prefix(4))
        var matches: [String] = []
        for entry in library.entries {
            let candidate = entry.key.lowercased()
            if candidate.contains(folded) || folded.contains(candidate) || candidate.hasPrefix(prefix) {
                matches.append(entry.address)
                if matches.count == 3 { break }
            }
        }
        return matches
    }
}
