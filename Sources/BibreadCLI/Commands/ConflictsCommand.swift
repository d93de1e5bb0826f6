import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import SyncEngine

/// `bibread conflicts`: the changes a merge could not decide, for each synced remote.
struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List the conflicts a sync's merge left: a field both machines changed differently.",
        subcommands: [ConflictsListCommand.self, ConflictsResolveCommand.self],
        defaultSubcommand: ConflictsListCommand.self)
}

/// `bibread conflicts [list]`.
struct ConflictsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the conflicts a sync's merge left (the default).",
        discussion: """
        When this machine and another change the same field of a reference differently, the sync \
        keeps the other machine's value in the library and keeps yours here, listed by this \
        command until you pick one. A reference one machine deleted and the other changed is \
        kept, and listed too. Nothing is ever dropped.
        """)

    @OptionGroup var remotes: CacheRemoteOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let names = try remotes.remoteNames(config: Config.load(from: Directories().config))
        var found: [(journal: ConflictJournal, conflict: JournalConflict)] = []
        do {
            for journal in try ConflictJournal.all(remoteNames: names) where remotes.remote == nil || journal.remote != nil {
                found += try journal.journal.openConflicts().map { (journal, $0) }
            }
        } catch {
            Console.error("bibread: a journal of conflicts could not be read: \(ErrorText.plain(error))")
            throw ExitStatus.unreadable
        }
        if json {
            let report: [[String: Any]] = found.map { journal, stored in
                var item: [String: Any] = ["file": stored.file, "key": stored.conflict.address.text,
                                           "kind": stored.conflict.kind == .field ? "field" : "deleted-and-edited", "found": stored.foundAt]
                if let remote = journal.remote { item["remote"] = remote }
                if let field = stored.conflict.field { item["field"] = field }
                if let mine = stored.conflict.mine { item["mine"] = mine }
                if let theirs = stored.conflict.theirs { item["theirs"] = theirs }
                if let base = stored.conflict.base { item["base"] = base }
                return item
            }
            let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
            return
        }
        if found.isEmpty {
            Console.print("No conflicts: every change made here is in its library.")
            return
        }
        for (journal, stored) in found {
            Console.print("\(journal.place(of: stored.file)): \(Self.describe(stored.conflict))")
        }
    }

    /// One conflict in a line: which reference and field, this machine's value and the one the
    /// library keeps.
    static func describe(_ conflict: MergeConflict) -> String {
        switch conflict.kind {
        case .deletedAndEdited:
            return "\(conflict.address) was deleted on one machine and changed on the other; it was kept"
        case .field:
            func shown(_ value: String?) -> String { value.map { "'\($0)'" } ?? "none" }
            let field = conflict.field == FieldDifference.entryType ? "type" : conflict.field ?? "?"
            return "\(conflict.address) \(field): yours \(shown(conflict.mine)) · in the library \(shown(conflict.theirs))"
        }
    }
}
