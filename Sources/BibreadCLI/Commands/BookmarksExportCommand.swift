import ArgumentParser
import BibreadServices
import BibreadValues
import DiskIO
import Foundation
import ReadingList

struct BookmarksExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the bookmark tree, or one folder, as a file or a link.")

    /// Output formats: the three file formats and the link.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case xml, binary, json, link
    }

    @Argument(help: ArgumentHelp("The folder to export, as a path of names (Course/Week 1); default: everything.", valueName: "folder"))
    var folder: String?

    @Option(help: "The format: xml (plist), binary (plist), json, or link (bibread://bookmarks?…).")
    var format: Format = .xml

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Include your notes on the bookmarked pages (IncludesPageNotes = YES).")
    var withNotes = false

    func run() throws {
        let store = try openStore()
        let folderID: Int64?
        do {
            folderID = try store.folder(atPath: folder ?? "")
        } catch let error as BookmarkStoreError {
            Console.error("bibread: \(error); 'bibread bookmarks list' shows the folders")
            throw ExitStatus.problems
        }
        let list = try store.readingList(folder: folderID, includeNotes: withNotes)
        let bytes: [UInt8]
        switch format {
        case .xml: bytes = ReadingListCoder.encode(list, as: .xml)
        case .binary: bytes = ReadingListCoder.encode(list, as: .binary)
        case .json: bytes = ReadingListCoder.encode(list, as: .json)
        case .link: bytes = Array((BookmarkLink.make(list) + "\n").utf8)
        }
        if let output {
            do {
                try AtomicFile.write(Data(bytes), to: URL(fileURLWithPath: output))
            } catch {
                Console.error("bibread: \(error)")
                throw ExitStatus.unreadable
            }
            Console.error("Wrote \(output) (\(ByteCount.format(Int64(bytes.count))))")
            return
        }
        if format == .binary && Console.isTerminal {
            Console.error("bibread: a binary plist is not for a terminal: write it with -o FILE or pipe it")
            throw ExitCode(64)
        }
        // Piped, the file's bytes as they are; on a terminal, cleaned of control characters.
        if Console.isTerminal { Console.write(bytes) } else { Console.writeData(bytes) }
    }
}
