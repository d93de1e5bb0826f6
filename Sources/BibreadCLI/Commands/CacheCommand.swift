import ArgumentParser

/// `bibread cache`: what the PDF cache holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or purge the PDF cache of synced remotes.",
        subcommands: [CacheStatusCommand.self, CachePurgeCommand.self],
        defaultSubcommand: CacheStatusCommand.self)
}
