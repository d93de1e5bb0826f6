import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import SyncEngine

/// `bibread conflicts resolve KEY FIELD --mine|--theirs|--value V`.
struct ConflictsResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Pick the value of a conflicting field: yours, the library's, or another.",
        discussion: """
        --theirs keeps the value the library has; --mine or --value writes the value into the \
        library here, and the next sync pushes it. The conflict is then no longer listed.
        """)

    @Argument(help: "The reference's cite key (KEY#2 for the second of a key).")
    var key: String

    @Argument(help: "The field, as 'bibread conflicts' names it.")
    var field: String

    @Flag(help: "Keep this machine's value.")
    var mine = false

    @Flag(help: "Keep the value the library has.")
    var theirs = false

    @Option(help: "Write this value instead (BibTeX, as between braces).")
    var value: String?

    @Option(help: "The remote, when the conflict is in more than one.")
    var remote: String?

    func validate() throws {
        if [mine, theirs, value != nil].filter({ $0 }).count != 1 {
            throw ValidationError("say which value to keep: --mine, --theirs or --value V")
        }
    }

    func run() throws {
        let config = Config.load(from: Directories().config)
        let names = remote.map { [$0] } ?? RemoteLocations.knownNames(configured: config.remotes).sorted()
        var found: [(journal: ConflictJournal, stored: JournalConflict)] = []
        for journal in try ConflictJournal.all(remoteNames: names) where remote == nil || journal.remote != nil {
            for stored in try journal.journal.openConflicts()
            where stored.conflict.address.text.lowercased() == key.lowercased() && stored.conflict.field == field.lowercased() {
                found.append((journal, stored))
            }
        }
        guard let match = found.last else {
            Console.error("bibread: no open conflict for \(key) \(field); 'bibread conflicts' lists them")
            throw ExitStatus.problems
        }
        let places = Set(found.map { $0.journal.place(of: $0.stored.file) })
        guard places.count == 1 else {
            Console.error("bibread: \(key) \(field) is in conflict in several libraries (\(places.sorted().joined(separator: ", "))); name the remote with --remote")
            throw ExitCode(64)
        }
        let choice: ConflictResolution.Choice = theirs ? .theirs : value.map { .value($0) } ?? .mine
        do {
            Console.print(try ConflictResolution().resolve(found.map(\.stored), in: match.journal, choice: choice,
                                                           command: "conflicts resolve \(key) \(field)"))
        } catch let error as EditError {
            Console.error("bibread: \(match.journal.place(of: match.stored.file)): \(match.stored.conflict.address) \(field.lowercased()): \(error.message)")
            throw ExitStatus.problems
        }
    }
}
