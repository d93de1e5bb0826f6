import ArgumentParser
import BibreadServices
import BibreadValues
import Foundation
import ReadingList

/// Whether to import a list's page notes.
enum NotesChoice: String, ExpressibleByArgument, CaseIterable {
    case yes, no
}

struct BookmarksImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import a reading list as a new folder of bookmarks.",
        discussion: """
        The list is checked first: a list with errors is not imported at all. Its page notes are \
        appended to your notes for those pages, never replacing them; when the list carries \
        notes, say whether to import them with --notes (asked on a terminal).
        """)

    @Argument(help: ArgumentHelp("A file (- for standard input), an http(s) URL, or a bibread:// link.", valueName: "list"))
    var source: String

    @Option(help: ArgumentHelp("Import the list's page notes too (asked when not given, on a terminal).", valueName: "yes|no"))
    var notes: NotesChoice?

    @OptionGroup var keyCheck: KeyCheckOptions

    func run() throws {
        let decoded = try loadList(source)
        let list = decoded.list
        var includeNotes = false
        if list.pageNoteCount > 0 {
            if let notes {
                includeNotes = notes == .yes
            } else if isatty(STDIN_FILENO) == 1 && !source.hasPrefix("-") {
                Console.errorRaw("The list carries \(list.pageNoteCount) page note\(list.pageNoteCount == 1 ? "" : "s"). Import them too? [y/N] ")
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                includeNotes = answer == "y" || answer == "yes"
            } else {
                Console.error("bibread: the list carries \(list.pageNoteCount) page notes: say --notes yes or --notes no")
                throw ExitCode(64)
            }
        }
        let store = try openStore()
        let summary = try store.importList(list, fallbackName: ReadingListSource(source).fallbackName, includeNotes: includeNotes)
        for warning in decoded.warnings { Console.error("\(ReadingListSource(source).displayName): warning: \(warning)") }
        var line = "Imported '\(summary.folderName)': \(summary.bookmarks) bookmark\(summary.bookmarks == 1 ? "" : "s")"
        if summary.folders > 0 { line += ", \(summary.folders) folder\(summary.folders == 1 ? "" : "s")" }
        if summary.notemarks > 0 { line += ", \(summary.notemarks) notemark\(summary.notemarks == 1 ? "" : "s")" }
        if includeNotes {
            line += ", \(summary.notesAdded) page note\(summary.notesAdded == 1 ? "" : "s") added"
            if summary.notesAlreadyThere > 0 { line += " (\(summary.notesAlreadyThere) already there)" }
        } else if list.pageNoteCount > 0 {
            line += "; page notes not imported"
        }
        Console.print(line)
        if let (library, _) = try keyCheck.load() {
            let missing = ReadingListLoader.missingKeyWarnings(list, in: library)
            if !missing.isEmpty {
                let keys = Set(list.bookmarks.map(\.reference.citeKey).filter { library.entries(withKey: $0).isEmpty }).sorted()
                Console.error("warning: \(keys.count) cite key\(keys.count == 1 ? " is" : "s are") not in the library: \(keys.prefix(10).joined(separator: ", "))\(keys.count > 10 ? "…" : "")")
            }
        }
    }
}

/// Loads a list from a file, URL or link, with a progress bar for downloads and Ctrl-C to stop.
private func loadList(_ argument: String) throws -> DecodedReadingList {
    let source = ReadingListSource(argument)
    let cancel = CancelOnInterrupt()
    let bar = DownloadBar(enabled: Console.isErrorTerminal)
    defer { bar.finish() }
    do {
        return try ReadingListLoader.load(source, progress: { bytes, total in bar.show(bytes: bytes, total: total) },
                                          isCancelled: cancel.isCancelled)
    } catch let error as ReadingListLoadError {
        bar.finish()
        if error.isCancellation {
            Console.error("bibread: stopped downloading \(source.displayName)")
            throw ExitCode(130)
        }
        if case .list(_, .invalid(let problems)) = error {
            for problem in problems { Console.error("\(source.displayName): error: \(problem)") }
            Console.error("\(source.displayName): \(problems.count) error\(problems.count == 1 ? "" : "s"); nothing was imported")
            throw ExitStatus.problems
        }
        Console.error("bibread: \(error)")
        throw ExitStatus.problems
    }
}

/// A one-line download progress bar on standard error.
private final class DownloadBar: @unchecked Sendable {
    private let enabled: Bool
    private var shown = false

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(bytes: Int64, total: Int64?) {
        guard enabled else { return }
        var line = "downloading: \(ByteCount.format(bytes))"
        if let total, total > 0 {
            let width = 20
            let filled = min(width, Int(Double(bytes) / Double(total) * Double(width)))
            line = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                + " \(ByteCount.format(bytes)) of \(ByteCount.format(total))  (Ctrl-C stops)"
        }
        Console.progressLine(line)
        shown = true
    }

    func finish() {
        if shown { Console.clearProgressLine() }
        shown = false
    }
}
