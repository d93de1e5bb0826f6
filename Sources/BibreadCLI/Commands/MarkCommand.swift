import ArgumentParser
import BibModel

/// `bibread mark LIB… KEY… read|unread`.
struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark references read or unread, in the library's own conventions.",
        discussion: """
        A BibDesk library gets its Read field (1 or 0), a JabRef library its readstatus; only the \
        bytes of that field change (and Date-Modified where the library keeps it). A synced \
        library's edit is kept for the next sync to push. Prints what changed.
        """)

    @Argument(help: ArgumentHelp("The library (.bib files or a synced remote), the cite keys, then read or unread.",
                                 valueName: "library... key... read|unread"))
    var arguments: [String] = []

    @OptionGroup var options: EditOptions

    func run() throws {
        let (libraries, rest) = EditRun.split(arguments)
        guard let state = rest.last, state == "read" || state == "unread", rest.count >= 2 else {
            throw ValidationError("name the library, one or more cite keys, then read or unread")
        }
        let keys = Array(rest.dropLast())
        try EditRun.apply([.markRead(state == "read")], keys: keys, libraries: libraries,
                          command: "mark \(keys.joined(separator: " ")) \(state)", dryRun: options.dryRun)
    }
}
