import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import SyncEngine

/// `bibread merge-conflicted LIB [COPY]`: folds a sync client's conflicted copy into its library.
struct MergeConflictedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-conflicted",
        abstract: "Fold a Dropbox, Nextcloud or Syncthing conflicted copy back into its library.",
        discussion: """
        When two machines change a library at once, sync clients keep one version and put the \
        other beside it as a "conflicted copy". This merges the copy into the library reference \
        by reference and field by field: what only the copy changed is taken, references only \
        the copy has are added, and a field both changed keeps the library's value while the \
        copy's is listed by 'bibread conflicts' until you pick one. When bibread syncs the \
        library, the last synced copy is the base of a three-way merge; otherwise every field \
        that differs is such a conflict (nothing is ever dropped, and no reference is removed). \
        The merge is written like every edit ('bibread undo LIB' takes it back), and the copy is \
        moved to $XDG_STATE_HOME/bibread/merged-copies/. 'bibread check' names the copies.

        Without COPY, the one conflicted copy beside the library is merged (several: they are listed).

        Exit status: 0 when merged; 1 when there is no such copy, or it does not read cleanly; \
        2 when a file cannot be read or written.
        """)

    @Argument(help: ArgumentHelp("The library: a .bib file, or a synced remote's name.", valueName: "library"))
    var library: String

    @Argument(help: ArgumentHelp("The conflicted copy (default: the only one beside the library).", valueName: "copy"))
    var copy: String?

    @Flag(help: "Say what the merge would do, and change nothing.")
    var dryRun = false

    func run() throws {
        let paths = try RemoteResolution.libraryPaths([library])
        let candidates = paths.flatMap { path in ConflictedCopy.beside(path).map { (library: path, copy: $0.path) } }
        let chosen: (library: String, copy: String)
        if let copy {
            let absolute = URL(fileURLWithPath: copy).standardizedFileURL.path
            let name = (absolute as NSString).lastPathComponent
            guard FileManager.default.fileExists(atPath: absolute) else {
                Console.error("bibread: \(copy): no such file")
                throw ExitStatus.problems
            }
            let owner = paths.first { ConflictedCopy.client(ofCopyNamed: name, of: ($0 as NSString).lastPathComponent) != nil }
            guard let target = owner ?? (paths.count == 1 ? paths.first : nil) else {
                Console.error("bibread: \(copy) is not named as a conflicted copy of \(paths.map { ($0 as NSString).lastPathComponent }.joined(separator: " or ")); name the library file itself")
                throw ExitStatus.problems
            }
            chosen = (target, absolute)
        } else {
            guard candidates.count == 1, let only = candidates.first else {
                if candidates.isEmpty {
                    Console.error("bibread: no conflicted copy beside \(paths.joined(separator: ", "))")
                } else {
                    Console.error("bibread: several conflicted copies; name one:")
                    for candidate in candidates { Console.error("  \(candidate.copy)") }
                }
                throw ExitStatus.problems
            }
            chosen = only
        }
        let outcome: ConflictedCopyMergeOutcome
        do {
            outcome = try LibraryEditing().mergeConflictedCopy(chosen.copy, into: chosen.library, dryRun: dryRun)
        } catch let error as EditError {
            Console.error("bibread: \(error.message)")
            throw ExitStatus.problems
        } catch let error as LibraryWriteError {
            Console.error("bibread: \(error)")
            throw ExitStatus.unreadable
        }
        report(outcome, library: chosen.library, copy: chosen.copy)
    }

    private func report(_ outcome: ConflictedCopyMergeOutcome, library: String, copy: String) {
        let name = (library as NSString).lastPathComponent
        let copyName = (copy as NSString).lastPathComponent
        let merge = outcome.merge
        let how = outcome.hadBase ? "against the last synced copy" : "keeping both values where they differ"
        let verb = dryRun ? "would take" : "took"
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        Console.print(TerminalText.cleanedLine("\(name): \(verb) from '\(copyName)' (\(how)): \(count(merge.changedReferences, "reference")) changed, "
            + "\(merge.addedReferences) added, \(merge.removedReferences) removed"))
        for conflict in merge.conflicts {
            Console.print(TerminalText.cleanedLine("  conflict: \(ConflictsListCommand.describe(conflict))"))
        }
        if !merge.conflicts.isEmpty {
            Console.print("\(count(merge.conflicts.count, "conflict")) kept the library's value; "
                + (dryRun ? "they would be listed by 'bibread conflicts'" : "'bibread conflicts' lists them, 'bibread conflicts resolve' picks one"))
        }
        if let moved = outcome.movedCopy {
            Console.print(TerminalText.cleanedLine("moved the copy to \(moved); 'bibread undo \(library)' takes the merge back"))
        }
    }
}
