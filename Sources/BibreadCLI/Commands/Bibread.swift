import ArgumentParser

/// The `bibread` command: a terminal reader for BibTeX libraries.
public struct Bibread: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bibread",
        abstract: "Read a BibTeX library in the terminal.",
        discussion: """
        Libraries are .bib files written by BibDesk, JabRef, Zotero (Better BibTeX) or by hand. \
        Several files given together form one library.

        Exit status: 0 on success; 1 when 'check' finds errors or a key is not found; 2 when a \
        file cannot be read; 64 on a usage error.
        """,
        version: BibreadVersion.string,
        subcommands: [BrowseCommand.self, ListCommand.self, ShowCommand.self, CheckCommand.self, GroupsCommand.self, SearchLatencyCommand.self],
        defaultSubcommand: BrowseCommand.self)

    public init() {}
}

/// The version printed by `bibread --version`.
public enum BibreadVersion {
    public static let string = "0.1.0"
}

/// `bibread [LIB.bib…]`: open the library. Until the full-screen reader lands, this lists it.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open a library (the default command; lists it until the full-screen reader lands).")

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        if library.libraries.isEmpty {
            throw ValidationError("name the .bib files to open, for example: bibread Samples/library.bib")
        }
    }

    func run() throws {
        try ListCommand.list(paths: library.libraries, json: false)
    }
}
