import ArgumentParser
import BibreadServices
import Foundation

/// `bibread undo LIB`: puts a library file back as it was before bibread's last edit of it.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Put a library back as it was before bibread's last edit of it.",
        discussion: """
        Every edit bibread writes keeps the version before it under \
        $XDG_STATE_HOME/bibread/history/ (the last 10 edits of each file); 'undo' puts the \
        newest back, and run again, the one before. It does so only when the file is still what \
        that edit wrote: when another program (BibDesk, JabRef, an editor, a sync client) changed \
        it since, 'undo' says what changed and leaves the file as it is. A synced remote's name \
        stands for its .bib files here: the one edited last is undone.

        Exit status: 0 when an edit was undone; 1 when there is nothing to undo or the file \
        changed since the edit; 2 when the file cannot be read or written.
        """)

    @Argument(help: ArgumentHelp("The library: a .bib file, or a synced remote's name.", valueName: "library"))
    var library: String

    func run() throws {
        let paths = try RemoteResolution.libraryPaths([library])
        let writer = LibraryFileWriter()
        // Of a remote's files, the one bibread edited last.
        let path = paths.max { (Self.lastEdit(of: $0, writer) ?? 0) < (Self.lastEdit(of: $1, writer) ?? 0) } ?? library
        do {
            let undo = try writer.undo(path: path) { holder in
                Console.error("bibread: waiting for \(holder.map { "process \($0)" } ?? "another bibread") to finish writing \(path)")
            }
            let left = undo.remaining == 0 ? "no earlier edit is kept" : "\(undo.remaining) earlier edit\(undo.remaining == 1 ? "" : "s") can be undone"
            Console.print("\(undo.path): undid '\(undo.edit.command)' of \(undo.edit.dateText); "
                + "the file is as it was before it (\(undo.bytes.count) bytes); \(left)")
        } catch let error as LibraryWriteError {
            Console.error("bibread: \(error)")
            switch error {
            case .nothingToUndo, .changedSinceEdit: throw ExitStatus.problems
            default: throw ExitStatus.unreadable
            }
        }
    }

    /// When bibread last edited `path` (nil: never, or the file is gone).
    private static func lastEdit(of path: String, _ writer: LibraryFileWriter) -> Double? {
        (try? writer.history(path: path))?.last?.date
    }
}
