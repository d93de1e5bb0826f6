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
        let diagnostics = Self.allDiagnostics(of: loaded.library) + Self.conflictedCopies(of: loaded.library)
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

    /// Parse diagnostics plus link problems (undecodable `Bdsk-File`), in file and line order.
    static func allDiagnostics(of library: Library) -> [Diagnostic] {
        var diagnostics = library.diagnostics
        for entry in library.entries {
            for problem in entry.links.problems {
                let location = entry.field(problem.field).map { entry.location(of: $0) } ?? entry.location
                diagnostics.append(Diagnostic(.warning, path: entry.source.path, location: location,
                                              message: "\(entry.key): \(problem.field) \(problem.message)"))
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
