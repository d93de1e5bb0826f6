import ArgumentParser
import BibModel
import DiskIO
import Foundation
import Reader
import ReadingList
import SyncEngine

/// `bibread bookmarks`: reading lists (folders, bookmarks to pages, notemarks) and page notes.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "List, import, export and check reading lists of bookmarks to pages.",
        discussion: """
        A reading list is a tree of folders, bookmarks (a cite key and pages) and notemarks, \
        written as an XML plist, a binary plist or JSON, or packed into a link: \
        bibread://bookmarks?DATA, or bibread://downloadbookmarks?URL to fetch one. Bookmarks \
        and page notes are kept in $XDG_STATE_HOME/bibread/state.sqlite; in the reader, b shows \
        them, m bookmarks a page and n writes the page's note.
        """,
        subcommands: [BookmarksListCommand.self, BookmarksValidateCommand.self, BookmarksImportCommand.self,
                      BookmarksExportCommand.self, BookmarksAddCommand.self],
        defaultSubcommand: BookmarksListCommand.self)
}

/// The library cite keys are checked against: `--library`, else the reader's current library.
struct KeyCheckOptions: ParsableArguments {
    @Option(name: .customLong("library"), help: ArgumentHelp(
        "The library to check cite keys against (repeatable; default: the reader's library).", valueName: "library.bib"))
    var libraries: [String] = []

    /// The library, or nil when none is named, configured or opened before.
    func load() throws -> (library: Library, paths: [String])? {
        let named = try RemoteResolution.libraryPaths(libraries)
        let paths = ReaderApp.currentLibraryPaths(given: named)
        guard !paths.isEmpty else { return nil }
        let loaded = LoadedLibrary.load(paths: paths)
        return loaded.failures.count == paths.count ? nil : (loaded.library, paths)
    }
}

/// Opens the state store, or exits with a message.
private func openStore() throws -> ReadingStore {
    do {
        return try ReadingStore(directory: Directories().state)
    } catch {
        Console.error("bibread: cannot open the bookmark store in \(Directories().state.path): \(ErrorText.plain(error))")
        throw ExitStatus.unreadable
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

// MARK: - list

struct BookmarksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the bookmark tree.")

    @OptionGroup var keyCheck: KeyCheckOptions

    @Flag(help: "Print JSON: the tree in the reading-list shape, with each node's id.")
    var json = false

    func run() throws {
        let store = try openStore()
        let tree = try store.savedBookmarks()
        let library = try keyCheck.load()?.library
        let missing: (SavedNode) -> Bool = { node in
            guard let library, let key = node.reference?.citeKey else { return false }
            return library.entries(withKey: key).isEmpty
        }
        if json {
            func object(_ node: SavedNode) -> [String: Any] {
                var result: [String: Any] = ["Id": node.id, "Name": node.name]
                switch node.kind {
                case .folder:
                    result["Class"] = "Folder"
                    result["Children"] = node.children.map(object)
                case .notemark:
                    result["Class"] = "Notemark"
                    result["Text"] = node.text ?? ""
                case .bookmark:
                    result["Class"] = "Bookmark"
                    if let reference = node.reference {
                        var dictionary: [String: Any] = ["CiteKey": reference.citeKey, "Page": reference.page]
                        if let lastPage = reference.lastPage { dictionary["LastPage"] = lastPage }
                        if let printed = reference.printedPage { dictionary["PageLabel"] = printed }
                        if let name = reference.library { dictionary["Library"] = name }
                        result["Reference"] = dictionary
                    }
                    if library != nil { result["InLibrary"] = !missing(node) }
                }
                return result
            }
            let root: [String: Any] = ["Class": "Folder", "Name": "Bookmarks", "Children": tree.nodes.map(object)]
            let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
            return
        }
        if tree.nodes.isEmpty {
            Console.print("No bookmarks yet. In the reader, m bookmarks the page you read; 'bibread bookmarks import FILE|URL|LINK' imports a list.")
            return
        }
        Console.print("Bookmarks")
        func printNodes(_ nodes: [SavedNode], prefix: String) {
            for (index, node) in nodes.enumerated() {
                let last = index == nodes.count - 1
                var line = prefix + (last ? "└── " : "├── ")
                switch node.kind {
                case .folder: line += node.name + "/"
                case .notemark: line += "✎ " + node.name + ((node.text ?? "").isEmpty ? "" : ": " + Self.oneLine(node.text ?? ""))
                case .bookmark: line += node.label + (missing(node) ? "  (not in the library)" : "")
                }
                Console.print(line)
                if node.kind == .folder { printNodes(node.children, prefix: prefix + (last ? "    " : "│   ")) }
            }
        }
        printNodes(tree.nodes, prefix: "")
    }

    /// The first line of a text, cut at 60 characters.
    static func oneLine(_ text: String) -> String {
        let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return first.count > 60 ? String(first.prefix(59)) + "…" : first
    }
}

// MARK: - validate

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

// MARK: - import

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

// MARK: - export

struct BookmarksExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the bookmark tree, or one folder, as a file or a link.")

    /// Output formats: the three file formats and the link.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case xml, binary, json, link
    }

    @Argument(help: ArgumentHelp("The folder to export, as a path of names (Course/Week 1); default: everything.", valueName: "folder"))
    var folder: String?

    @Option(help: "The format: xml (plist), binary (plist), json, or link (bibread://bookmarks?…).")
    var format: Format = .xml

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Include your notes on the bookmarked pages (IncludesPageNotes = YES).")
    var withNotes = false

    func run() throws {
        let store = try openStore()
        let folderID: Int64?
        do {
            folderID = try store.folder(atPath: folder ?? "")
        } catch let error as BookmarkStoreError {
            Console.error("bibread: \(error); 'bibread bookmarks list' shows the folders")
            throw ExitStatus.problems
        }
        let list = try store.readingList(folder: folderID, includeNotes: withNotes)
        let bytes: [UInt8]
        switch format {
        case .xml: bytes = ReadingListCoder.encode(list, as: .xml)
        case .binary: bytes = ReadingListCoder.encode(list, as: .binary)
        case .json: bytes = ReadingListCoder.encode(list, as: .json)
        case .link: bytes = Array((BookmarkLink.make(list) + "\n").utf8)
        }
        if let output {
            do {
                try AtomicFile.write(Data(bytes), to: URL(fileURLWithPath: output))
            } catch {
                Console.error("bibread: \(error)")
                throw ExitStatus.unreadable
            }
            Console.error("Wrote \(output) (\(ByteCount.format(Int64(bytes.count))))")
            return
        }
        if format == .binary && Console.isTerminal {
            Console.error("bibread: a binary plist is not for a terminal: write it with -o FILE or pipe it")
            throw ExitCode(64)
        }
        // Piped, the file's bytes as they are; on a terminal, cleaned of control characters.
        if Console.isTerminal { Console.write(bytes) } else { Console.writeData(bytes) }
    }
}

// MARK: - add

struct BookmarksAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Bookmark pages of a reference: KEY:12 or KEY:12-14.",
        discussion: """
        The pages are printed pages (page labels), found in the reference's PDF as the reader \
        finds them; KEY:#12 is the 12th page of the file. The bookmark stores the page of the \
        file and its printed label.
        """)

    @Argument(help: ArgumentHelp("A cite key with a printed page or range: knuth84:12, knuth84:12-14; knuth84:#12 for the 12th page of the file.",
                                 valueName: "key:pages"))
    var target: String

    @Option(help: "The bookmark's name (default: the reference's title, when the library has it).")
    var name: String?

    @Option(help: ArgumentHelp("The folder to add it to, as a path of names; created when missing.", valueName: "folder"))
    var folder: String?

    @OptionGroup var keyCheck: KeyCheckOptions

    func run() throws {
        guard let paper = try? ReferenceLink.parseTarget(target), let pages = paper.pages.first else {
            Console.error("bibread: '\(target)' is not KEY:PAGE or KEY:FIRST-LAST (pages from 1, the last not before the first)")
            throw ExitCode(64)
        }
        // The key and the pages are checked first, so that a refused bookmark leaves no folder
        // behind either.
        var title = name
        var entry: Entry?
        if let (library, paths) = try keyCheck.load() {
            entry = library.entries(withKey: paper.key).first
            guard let entry else {
                let files = paths.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")
                Console.error("bibread: \(paper.key) is not in the library (\(files)); nothing was bookmarked")
                throw ExitCode(64)
            }
            if title == nil { title = entry.title }
        }
        let reference = try Self.reference(to: paper.key, pages: pages, numbering: paper.numbering, in: entry)
        let store = try openStore()
        var parent: Int64?
        if let folder, !folder.trimmingCharacters(in: .whitespaces).isEmpty {
            var path: [String] = []
            for part in folder.split(separator: "/").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
                path.append(part)
                if let existing = try? store.folder(atPath: path.joined(separator: "/")) {
                    parent = existing
                } else {
                    parent = try store.addFolder(named: part, in: parent)
                }
            }
        }
        try store.addBookmark(named: title ?? "", reference: reference, in: parent)
        Console.print("Bookmarked \(reference.citeKey) \(reference.pageLabel)\(folder.map { " in \($0)" } ?? "")")
    }

    /// The bookmark to `pages` of `key`: printed pages found in the PDF of `entry` by the
    /// reader's rule, stored as pages of the file with the first one's printed label. Where the
    /// PDF cannot be read here the numbers are stored as pages of the file, with a warning for
    /// printed ones. A page past the end is an error.
    static func reference(to key: String, pages: ClosedRange<Int>, numbering: PageNumbering, in entry: Entry?) throws -> PageReference {
        guard let info = PDFPageNumbers.info(of: entry) else {
            if numbering == .printed {
                Console.error("warning: no PDF of \(key) to read here: p. \(pages.lowerBound) is stored as page #\(pages.lowerBound) of the file")
            }
            return PageReference(citeKey: key, page: pages.lowerBound, lastPage: pages.count > 1 ? pages.upperBound : nil)
        }
        let first = info.resolve(PageRequest(pages.lowerBound, numbering: numbering))
        let last = info.resolve(PageRequest(pages.upperBound, numbering: numbering), from: first.page ?? 1)
        for resolution in pages.count > 1 ? [first, last] : [first] {
            switch resolution {
            case .page:
                continue
            case .noSuchLabel:
                Console.error("bibread: note: \(info.note(on: resolution))")
            case .pastTheEnd, .notFound:
                Console.error("bibread: \(key): \(info.note(on: resolution))")
                throw ExitStatus.problems
            }
        }
        guard let firstPage = first.page, let lastPage = last.page, lastPage >= firstPage else {
            Console.error("bibread: \(key): p. \(pages.upperBound) comes before p. \(pages.lowerBound) in the PDF")
            throw ExitStatus.problems
        }
        return PageReference(citeKey: key, page: firstPage, lastPage: lastPage > firstPage ? lastPage : nil,
                             printedPage: info.distinctLabel(ofPage: firstPage))
    }
}
