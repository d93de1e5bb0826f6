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
        var found: [(locations: RemoteLocations, journal: EditJournal, stored: JournalConflict)] = []
        for name in names {
            let locations = RemoteLocations(name: name)
            guard let journal = try locations.existingJournal() else { continue }
            for stored in try journal.openConflicts()
            where stored.conflict.address.text.lowercased() == key.lowercased() && stored.conflict.field == field.lowercased() {
                found.append((locations, journal, stored))
            }
        }
        guard let match = found.last else {
            Console.error("bibread: no open conflict for \(key) \(field); 'bibread conflicts' lists them")
            throw ExitStatus.problems
        }
        guard Set(found.map(\.locations.name)).count == 1 else {
            Console.error("bibread: \(key) \(field) is in conflict in several remotes (\(found.map(\.locations.name).joined(separator: ", "))); name one with --remote")
            throw ExitCode(64)
        }
        let conflict = match.stored.conflict
        let place = "\(match.locations.name): \(match.stored.file): \(conflict.address) \(field.lowercased())"
        if !theirs {
            let chosen = value ?? conflict.mine
            let edit: EntryEdit = chosen.map { .setField(field.lowercased(), to: $0) } ?? .removeField(field.lowercased())
            let path = try RemotePath.local(match.stored.file, under: match.locations.library).path
            do {
                _ = try LibraryEditing().apply([edit], to: conflict.address, in: path, command: "conflicts resolve \(key) \(field)")
            } catch let error as EditError {
                Console.error("bibread: \(place): \(error.message)")
                throw ExitStatus.problems
            }
        }
        // Every open conflict of that field is settled by the one choice.
        for other in found { try other.journal.resolve(conflict: other.stored.id, at: Date().timeIntervalSince1970) }
        if theirs {
            Console.print("\(place): kept the library's value\(conflict.theirs.map { " '\($0)'" } ?? " (none)")")
        } else {
            // This machine's value may be no value: the field was removed here.
            let chosen = value ?? conflict.mine
            let what = chosen.map { "set to '\($0)'" } ?? "removed"
            Console.print("\(place): \(what)\(value == nil ? " (yours)" : ""); the next sync pushes it")
        }
    }
}
