import ArgumentParser
import BibModel
import BibreadServices
import Foundation

/// `bibread-dev write-library LIB`: edits a library file in rounds through `LibraryFileWriter`,
/// as a command or the reader writes an edit, for the tests that kill it (SIGKILL at random
/// moments), run two at once, or change the file under it.
///
/// Round `r` (from 1) loads the file and its stamp, then writes with a transformation that
/// reads the round counter `n` from the bytes it is given (the first line,
/// `@comment{write-library round n}`; 0 when there is none) and gives back
/// `WriteLibraryCommand.content(round: n + 1, entries:)`; the check re-parses the temporary file
/// and wants exactly the entries of that round. So the file always holds the content of some
/// round, and rounds of two writers add up when they take turns. After each write it prints
/// `round N written` (and `, someone else wrote the file since it was loaded` when so).
struct WriteLibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-library",
        abstract: "Edit a library file through the library writer in rounds (crash, lock and conflict tests).")

    @Argument(help: ArgumentHelp("The library file (it is replaced by the rounds' contents).", valueName: "library.bib"))
    var library: String

    @Option(help: "How many rounds (default: until killed).")
    var rounds: Int?

    @Option(help: "Entries in a round's file (round r has entries + (r % 4) * entries / 2).")
    var entries = 200

    @Option(help: "Milliseconds to wait between loading the file and writing it, the lock not held.")
    var pause = 0

    @Option(help: "Milliseconds to wait in the transformation, the lock held.")
    var hold = 0

    func validate() throws {
        if entries < 1 { throw ValidationError("--entries must be at least 1") }
    }

    func run() throws {
        let writer = LibraryFileWriter()
        var round = 0
        while rounds.map({ round < $0 }) ?? true {
            round += 1
            let (_, stamp) = try LoadedFileStamp.read(library)
            if pause > 0 { usleep(UInt32(pause) * 1000) }
            var written = 0
            let outcome = try writer.write(path: library, loaded: stamp, command: "write-library round \(round)", waiting: { holder in
                DevConsole.error("write-library: waiting for \(holder.map { "process \($0)" } ?? "another writer")")
            }, transform: { current in
                if hold > 0 { usleep(UInt32(hold) * 1000) }
                written = Self.round(of: current) + 1
                return Self.content(round: written, entries: entries)
            }, check: { _, new in
                try Self.check(new, round: written, entries: entries)
            })
            DevConsole.print("round \(written) written" + (outcome.externalChange == nil ? "" : ", someone else wrote the file since it was loaded"))
        }
    }

    /// The file of round `r`: its counter line, then `entries + (r % 4) * entries / 2` entries.
    static func content(round r: Int, entries: Int) -> [UInt8] {
        var text = "@comment{write-library round \(r)}\n"
        for index in 0..<(entries + (r % 4) * entries / 2) {
            text += "@misc{r\(r)-\(index),\n  title = {Round \(r), entry \(index)},\n  note = {\(String(repeating: "x", count: 40 + index % 80))}\n}\n"
        }
        return Array(text.utf8)
    }

    /// The round counter on the first line of `bytes` (0 when there is none).
    static func round(of bytes: [UInt8]) -> Int {
        let prefix = Array("@comment{write-library round ".utf8)
        guard bytes.starts(with: prefix) else { return 0 }
        return Int(String(decoding: bytes.dropFirst(prefix.count).prefix { $0 != UInt8(ascii: "}") }, as: UTF8.self)) ?? 0
    }

    /// Re-parses a round's file and wants exactly its entries.
    static func check(_ bytes: [UInt8], round r: Int, entries: Int) throws {
        let library = Library.parse([(path: "write-library", bytes: bytes)])
        let expected = entries + (r % 4) * entries / 2
        guard library.entries.count == expected, library.diagnostics.isEmpty, Self.round(of: bytes) == r else {
            throw ValidationError("round \(r): the new file has \(library.entries.count) entries (not \(expected)), "
                + "\(library.diagnostics.count) problems, counter \(Self.round(of: bytes))")
        }
    }
}
