import ArgumentParser
import BibModel

/// `bibread group add|remove LIB… GROUP KEY…`.
struct GroupEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Add references to a static group, or remove them from it.",
        discussion: """
        BibDesk's static groups (its group comment) or JabRef's explicit groups (the groups \
        field). The group must exist: smart and field groups have no members to add. Prints \
        what changed.
        """)

    @Argument(help: ArgumentHelp("add or remove, the library (.bib files or a synced remote), the group, then the cite keys.",
                                 valueName: "add|remove library... group key..."))
    var arguments: [String] = []

    @OptionGroup var options: EditOptions

    func run() throws {
        guard let verb = arguments.first, verb == "add" || verb == "remove" else {
            throw ValidationError("say add or remove, then the library, the group and the cite keys")
        }
        let (libraries, rest) = EditRun.split(Array(arguments.dropFirst()))
        guard rest.count >= 2 else { throw ValidationError("name the library, the group, then one or more cite keys") }
        let group = rest[0]
        let keys = Array(rest.dropFirst())
        let edit: EntryEdit = verb == "add" ? .addToGroup(group) : .removeFromGroup(group)
        try EditRun.apply([edit], keys: keys, libraries: libraries,
                          command: "group \(verb) \(group) \(keys.joined(separator: " "))", dryRun: options.dryRun)
    }
}
