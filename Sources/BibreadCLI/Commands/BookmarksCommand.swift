import ArgumentParser
import BibreadServices
import Foundation
import SyncEngine

/// `bibread bookmarks`: reading lists (folders, bookmarks to pages, notemarks) and page notes.
struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "List, import, export and check reading lists of bookmarks to pages.",
        discussion: """
        A reading list is a tree of folders, bookmarks (a cite key and pages) and notemarks, \
        written as an XML plist, a binary plist or JSON, or packed into a link: \
        bibread://bookmarks?DATA, or bibread://downloadbookmarks?URL to fetch one. Bookmarks \
        and page notes are kept in $XDG_STATE_HOME/bibread/state.sqlite; in the reader, b shows \
        them, m bookmarks a page and n writes the page's note.
        """,
        subcommands: [BookmarksListCommand.self, BookmarksValidateCommand.self, BookmarksImportCommand.self,
                      BookmarksExportCommand.self, BookmarksAddCommand.self],
        defaultSubcommand: BookmarksListCommand.self)
}

/// Opens the state store, or exits with a message.
func openStore() throws -> ReadingStore {
    do {
        return try ReadingStore(directory: Directories().state)
    } catch {
        Console.error("bibread: cannot open the bookmark store in \(Directories().state.path): \(ErrorText.plain(error))")
        throw ExitStatus.unreadable
    }
}
