import ArgumentParser
import BibModel

/// `bibread tag LIB… KEY… +WORD -WORD`.
struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add (+word) and remove (-word) keywords of references.",
        discussion: """
        Keywords are written with the separator the library already uses. A keyword the \
        reference has is not added twice; removing compares without case. Prints what changed.
        """)

    @Argument(parsing: .allUnrecognized,
              help: ArgumentHelp("The library (.bib files or a synced remote), the cite keys, then +word and -word.",
                                 valueName: "library... key... +word... -word..."))
    var arguments: [String] = []

    @OptionGroup var options: EditOptions

    func run() throws {
        let (libraries, rest) = EditRun.split(arguments)
        let keys = rest.prefix { !$0.hasPrefix("+") && !$0.hasPrefix("-") }
        let words = rest.dropFirst(keys.count)
        let added = words.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }.filter { !$0.isEmpty }
        let removed = words.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()) }.filter { !$0.isEmpty }
        guard !keys.isEmpty, !words.isEmpty, added.count + removed.count == words.count else {
            throw ValidationError("name the library, one or more cite keys, then +word to add and -word to remove")
        }
        var edits: [EntryEdit] = []
        if !added.isEmpty { edits.append(.addKeywords(added)) }
        if !removed.isEmpty { edits.append(.removeKeywords(removed)) }
        try EditRun.apply(edits, keys: Array(keys), libraries: libraries,
                          command: "tag \(keys.joined(separator: " ")) \(words.joined(separator: " "))", dryRun: options.dryRun)
    }
}
