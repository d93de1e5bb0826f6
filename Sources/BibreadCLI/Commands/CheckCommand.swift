import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import SyncEngine

/// `bibread check`: every problem as `file:line:col: error|warning: message`.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report every problem in the files as file:line:col: error|warning: message.",
        discussion: """
        Everything that can be read is still loaded. Exits 0 when there are no errors (warnings \
        allowed), 1 when there are errors, 2 when a file cannot be read at all.
        """)

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if library.libraries.isEmpty { throw ValidationError("name at least one .bib file") }
    }

    func run() throws {
        let loaded = try library.load(preparingLineNumbers: true)
        let diagnostics = Self.allDiagnostics(of: loaded.library, locator: LinkedFileLocator.shared)
            + Self.conflictedCopies(of: loaded.library)
        for diagnostic in diagnostics {
            Console.print(diagnostic.description)
        }
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count - errors
        let entries = loaded.library.entries.count
        Console.error("\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s") in \(entries) reference\(entries == 1 ? "" : "s") from \(loaded.library.files.count) file\(loaded.library.files.count == 1 ? "" : "s")")
        try loaded.exitIfSomeFilesFailed()
        if errors > 0 { throw ExitStatus.problems }
    }

    /// What `check` says of a linked file found by its name, or whose name was found more than
    /// once; nil for any other (a file simply missing is not reported: that is not a problem
    /// of the library file).
    static func guessNote(_ lookup: LinkedFileLookup, for file: LinkedFile) -> String? {
        switch lookup {
        case .sameName(let path):
            return "file \(file.path) not found; using \(HomeFolder.abbreviated(path)) (same name)"
        case .ambiguous(let paths):
            let name = (file.path.replacingOccurrences(of: "\\", with: "/") as NSString).lastPathComponent
            return "file \(file.path) not found; \(paths.count) files are named \(name), so none is used "
                + "(\(paths.map { HomeFolder.abbreviated($0) }.joined(separator: ", "))); fix the link, or map its folder with [library.path_mapping] in config.toml"
        case .located, .notFound:
            return nil
        }
    }

    /// A warning at the top of each library file for each conflicted copy a sync client left
    /// beside it (Dropbox, Nextcloud, ownCloud, Syncthing): changes made there are not in it.
    static func conflictedCopies(of library: Library) -> [Diagnostic] {
        library.files.flatMap { file in
            ConflictedCopy.beside(file.source.path).map { copy in
                Diagnostic(.warning, path: file.source.path, location: SourceLocation(line: 1, column: 1),
                           message: "'\((copy.path as NSString).lastPathComponent)' beside it is a conflicted copy (\(copy.client.rawValue)): "
                               + "two machines changed the library at once, and the changes made in the copy are not in this file")
            }
        }
    }

    /// Parse diagnostics plus link problems (undecodable `Bdsk-File`), and the linked files
    /// found by name instead of at their path (or found twice by name), in file and line order.
    static func allDiagnostics(of library: Library, locator: LinkedFileLocator) -> [Diagnostic] {
        var diagnostics = library.diagnostics
        for entry in library.entries {
            func warn(field: String, _ message: String) {
                let location = entry.field(field).map { entry.location(of: $0) } ?? entry.location
                diagnostics.append(Diagnostic(.warning, path: entry.source.path, location: location, message: "\(entry.key): \(message)"))
            }
            for problem in entry.links.problems {
                warn(field: problem.field, "\(problem.field) \(problem.message)")
            }
            for file in entry.links.files {
                if let guess = Self.guessNote(locator.lookup(file), for: file) { warn(field: file.field, guess) }
            }
        }
        let fileOrder = Dictionary(library.files.enumerated().map { ($1.source.path, $0) }, uniquingKeysWith: { first, _ in first })
        return diagnostics.enumerated().sorted { left, right in
            let leftFile = fileOrder[left.element.path] ?? 0
            let rightFile = fileOrder[right.element.path] ?? 0
            if leftFile != rightFile { return leftFile < rightFile }
            if left.element.location != right.element.location { return left.element.location < right.element.location }
            return left.offset < right.offset
        }.map(\.element)
    }
}
