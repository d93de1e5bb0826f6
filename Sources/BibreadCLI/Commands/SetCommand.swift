import ArgumentParser
import BibModel

/// `bibread set LIB… KEY FIELD=VALUE… [--unset FIELD]…`.
struct SetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set or remove fields of a reference; only those fields' bytes change.",
        discussion: """
        VALUE is written as BibTeX between braces (LaTeX as it should stand there); a new field \
        is written in the style of its neighbours. A value the file's encoding cannot hold, or \
        with unbalanced braces, is refused. Prints what changed.
        """)

    @Argument(help: ArgumentHelp("The library (.bib files or a synced remote), the cite key, then FIELD=VALUE.",
                                 valueName: "library... key field=value..."))
    var arguments: [String] = []

    @Option(name: .customLong("unset"), help: ArgumentHelp("Remove this field (repeatable).", valueName: "field"))
    var unset: [String] = []

    @OptionGroup var options: EditOptions

    func run() throws {
        let (libraries, rest) = EditRun.split(arguments)
        guard let key = rest.first, rest.count > 1 || !unset.isEmpty else {
            throw ValidationError("name the library, one cite key, then FIELD=VALUE or --unset FIELD")
        }
        var edits: [EntryEdit] = []
        for assignment in rest.dropFirst() {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("'\(assignment)' is not FIELD=VALUE")
            }
            edits.append(.setField(String(assignment[..<equals]), to: String(assignment[assignment.index(after: equals)...])))
        }
        edits += unset.map { .removeField($0) }
        try EditRun.apply(edits, keys: [key], libraries: libraries,
                          command: "set \(key) \((rest.dropFirst() + unset.map { "--unset \($0)" }).joined(separator: " "))", dryRun: options.dryRun)
    }
}
