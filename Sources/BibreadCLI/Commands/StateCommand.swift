import ArgumentParser

/// `bibread state`: the reading state shared with other machines through a remote.
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Show or prune the reading state shared with your other machines.",
        discussion: """
        Positions, bookmarks, page notes and read times travel through the remote a library \
        syncs from: each machine writes only its own log files in .bibread/state/ there, and \
        every sync (bibread sync, F5 in the reader) merges everyone's, without conflicts.
        """,
        subcommands: [StateStatusCommand.self, StateForgetCommand.self],
        defaultSubcommand: StateStatusCommand.self)
}
