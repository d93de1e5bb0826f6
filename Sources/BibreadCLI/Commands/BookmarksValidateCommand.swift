import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import ReadingList

struct BookmarksValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Check a reading list: every error with its place in the tree.",
        discussion: "Exit status: 0 when the list can be imported (warnings allowed), 1 when it has errors.")

    @Argument(help: ArgumentHelp("A file (- for standard input), an http(s) URL, or a bibread:// link.", valueName: "list"))
    var source: String

    @OptionGroup var keyCheck: KeyCheckOptions

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() throws {
        let name = ReadingListSource(source).displayName
        let decoded: DecodedReadingList
        do {
            decoded = try ReadingListLoader.load(ReadingListSource(source))
        } catch let error as ReadingListLoadError {
            var errors: [ListProblem] = []
            var message = "\(error)"
            if case .list(_, .invalid(let problems)) = error {
                errors = problems
                message = "\(problems.count) error\(problems.count == 1 ? "" : "s")"
            }
            if json {
                try printJSON(["valid": false, "source": name, "message": message,
                               "errors": errors.map { ["path": $0.path, "message": $0.message] }, "warnings": [] as [Any]])
            } else {
                for problem in errors { Console.print("\(name): error: \(problem)") }
                Console.print(errors.isEmpty ? "bibread: \(error)" : "\(name): \(message)")
            }
            throw ExitStatus.problems
        }
        var warnings = decoded.warnings
        var checkedAgainst: [String]?
        if let (library, paths) = try keyCheck.load() {
            warnings += ReadingListLoader.missingKeyWarnings(decoded.list, in: library)
            checkedAgainst = paths
        }
        let counts = Self.counts(decoded.list)
        if json {
            var report: [String: Any] = ["valid": true, "source": name, "format": decoded.format.rawValue, "errors": [] as [Any],
                                         "warnings": warnings.map { ["path": $0.path, "message": $0.message] },
                                         "folders": counts.folders, "bookmarks": counts.bookmarks, "notemarks": counts.notemarks,
                                         "pageNotes": decoded.list.pageNoteCount]
            report["library"] = checkedAgainst
            try printJSON(report)
            return
        }
        for warning in warnings { Console.print("\(name): warning: \(warning)") }
        var summary = "\(name): valid \(decoded.format.displayName): \(counts.folders) folder\(counts.folders == 1 ? "" : "s"), "
            + "\(counts.bookmarks) bookmark\(counts.bookmarks == 1 ? "" : "s"), \(counts.notemarks) notemark\(counts.notemarks == 1 ? "" : "s")"
        if decoded.list.pageNoteCount > 0 { summary += ", \(decoded.list.pageNoteCount) page notes" }
        if !warnings.isEmpty { summary += "; \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
        if checkedAgainst == nil { summary += " (cite keys not checked: no library; name one with --library)" }
        Console.print(summary)
    }

    private func printJSON(_ object: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        Console.print(String(decoding: data, as: UTF8.self))
    }

    /// Folders (below the root), bookmarks and notemarks.
    static func counts(_ list: ReadingList) -> (folders: Int, bookmarks: Int, notemarks: Int) {
        var counts = (folders: 0, bookmarks: 0, notemarks: 0)
        func walk(_ folder: BookmarkFolder) {
            for child in folder.children {
                switch child {
                case .folder(let sub):
                    counts.folders += 1
                    walk(sub)
                case .bookmark: counts.bookmarks += 1
                case .notemark: counts.notemarks += 1
                }
            }
        }
        walk(list.root)
        return counts
    }
}
