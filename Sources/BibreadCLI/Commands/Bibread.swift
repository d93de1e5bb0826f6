import ArgumentParser
import PDFText
import Reader
import ReadingList

/// The `bibread` command: a terminal reader for BibTeX libraries.
public struct Bibread: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bibread",
        abstract: "Read a BibTeX library in the terminal.",
        discussion: """
        Libraries are .bib files written by BibDesk, JabRef, Zotero (Better BibTeX) or by hand. \
        Several files given together form one library.

        Exit status: 0 on success; 1 when 'check' finds errors, a key is not found or 'undo' \
        finds nothing it may undo; 2 when a file cannot be read; 64 on a usage error.
        """,
        version: BibreadVersion.string,
        subcommands: [BrowseCommand.self, ListCommand.self, ShowCommand.self, ReadCommand.self, CheckCommand.self, GroupsCommand.self,
                      SyncCommand.self, ConflictsCommand.self, CacheCommand.self, BookmarksCommand.self, LinkCommand.self, OpenCommand.self,
                      HandlersCommand.self, InstallHandlerCommand.self, IndexCommand.self, MarkCommand.self, RateCommand.self, TagCommand.self, SetCommand.self,
                      GroupEditCommand.self, UndoCommand.self, MergeConflictedCommand.self, StateCommand.self,
                      LoginCommand.self, LogoutCommand.self, InstallSyncServiceCommand.self],
        defaultSubcommand: BrowseCommand.self)

    public init() {}

    /// Runs the command the arguments name. For `read`, poppler-glib starts loading on a thread
    /// of its own first: its ~40 libraries load while the arguments are parsed and the library
    /// is read, not after (poppler is loaded on first use otherwise, see `Poppler`).
    public static func main() {
        if CommandLine.arguments.dropFirst().first == ReadCommand.configuration.commandName {
            Poppler.startLoading()
        }
        main(nil)
    }
}

/// The version printed by `bibread --version`.
public enum BibreadVersion {
    public static let string = "0.1.0"
}

/// `bibread [LIB.bib…]`: the full-screen reader.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Open a library in the full-screen reader (the default command).",
        discussion: """
        Without files, opens the default library of $XDG_CONFIG_HOME/bibread/config.toml \
        (library = "~/papers/library.bib"), else the library opened last. Press ? in the reader \
        for its keys. When standard output is not a terminal, prints the list as 'bibread list' \
        does. A bibread://bookmarks link among the arguments opens the reader on its bookmarks, \
        ready to import the list.
        """)

    @OptionGroup var library: LibraryOptions

    func run() throws {
        // Piped or redirected, there is no screen to draw on: print the list instead, as
        // `bibread list` would (so `bibread lib.bib | grep knuth` does the obvious thing).
        // A bibread:// bookmarks link among the arguments is a reading list to import.
        let links = library.libraries.filter { BookmarkLink.isLink($0) }
        var files = library
        files.libraries.removeAll { BookmarkLink.isLink($0) }
        if links.count > 1 {
            throw ValidationError("give one bookmarks link at a time")
        }
        if !Console.isTerminal && !files.libraries.isEmpty && links.isEmpty {
            try ListCommand.list(paths: files.paths, json: false)
            return
        }
        var options = ReaderApp.Options(paths: try files.paths)
        options.importSource = links.first
        options.syncExecutable = ThisProgram.path
        ReaderApp.endProcess(ReaderApp.run(options))
    }
}
