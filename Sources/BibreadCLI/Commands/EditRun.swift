import ArgumentParser
import BibModel
import BibreadServices
import Foundation
import SyncEngine

/// What the editing commands (`mark`, `rate`, `tag`, `set`, `group add|remove`) share: which
/// arguments name the library, finding each reference, writing each edit through
/// `LibraryEditing`, and saying what changed (or, with `--dry-run`, what would).
enum EditRun {
    /// The leading arguments that name a library (a path ending in `.bib` or holding a `/`, or a
    /// synced remote's name) and the rest.
    static func split(_ arguments: [String]) -> (libraries: [String], rest: [String]) {
        let count = arguments.prefix { argument in
            argument.hasSuffix(".bib") || argument.contains("/") || !RemoteLocations(name: argument).libraryFiles.isEmpty
        }.count
        return (Array(arguments.prefix(count)), Array(arguments.dropFirst(count)))
    }

    /// Applies `edits` to each of `keys` in the library `libraries` name; `command` is how the
    /// edit is named in the file's history. Unknown keys stop everything before anything is
    /// written (exit 1).
    static func apply(_ edits: [EntryEdit], keys: [String], libraries: [String], command: String, dryRun: Bool) throws {
        guard !libraries.isEmpty else {
            Console.error("bibread: name the library first: a .bib file or a synced remote's name")
            throw ExitCode(64)
        }
        let paths = try RemoteResolution.libraryPaths(libraries)
        let loaded = LoadedLibrary.load(paths: paths)
        let entries = try keys.map { try loaded.entry(addressedBy: $0, paths: paths) }
        let editing = LibraryEditing()
        var failed = false
        for entry in entries {
            do {
                let outcome = try editing.apply(edits, to: entry.entryAddress, in: entry.source.path, command: command, dryRun: dryRun)
                report(outcome, entry: entry, dryRun: dryRun)
            } catch let error as EditError {
                Console.error("bibread: \(entry.address): \(error.message)")
                failed = true
            } catch let error as LibraryWriteError {
                Console.error("bibread: \(entry.address): \(error)")
                throw ExitStatus.unreadable
            }
        }
        if failed { throw ExitStatus.problems }
    }

    /// One line per change (`library.bib: knuth1984: Read: 0 → 1`), or the lines that would
    /// change, as a diff.
    private static func report(_ outcome: LibraryEditOutcome, entry: Entry, dryRun: Bool) {
        let name = (entry.source.path as NSString).lastPathComponent
        if outcome.result.isUnchanged {
            Console.print("\(name): \(entry.address): already so; nothing to change")
            return
        }
        if dryRun {
            Console.print(diff(path: entry.source.path, old: outcome.before ?? [], new: outcome.result.bytes))
            return
        }
        if let external = outcome.write?.externalChange {
            Console.error("bibread: note: \(entry.source.path) was changed by another program since it was read "
                          + "(\(external.loaded.differences(to: external.found).joined(separator: ", "))); the edit was made to it as it is now")
        }
        for line in outcome.result.summary { Console.print("\(name): \(entry.address): \(line)") }
    }

    /// The lines of the file at `path` (`old`) that `new` changes, as a unified diff of one hunk.
    private static func diff(path: String, old: [UInt8], new: [UInt8]) -> String {
        let oldLines = text(of: old).split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = text(of: new).split(separator: "\n", omittingEmptySubsequences: false)
        var start = 0
        while start < oldLines.count, start < newLines.count, oldLines[start] == newLines[start] { start += 1 }
        var oldEnd = oldLines.count, newEnd = newLines.count
        while oldEnd > start, newEnd > start, oldLines[oldEnd - 1] == newLines[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        var lines = ["--- \(path)", "+++ \(path) (edited)",
                     "@@ -\(start + 1),\(oldEnd - start) +\(start + 1),\(newEnd - start) @@"]
        lines += oldLines[start..<oldEnd].map { "-" + $0 }
        lines += newLines[start..<newEnd].map { "+" + $0 }
        return lines.joined(separator: "\n")
    }

    /// A file's text for showing: UTF-8, else Latin-1 (the encodings the edit engine writes).
    private static func text(of bytes: [UInt8]) -> String {
        String(bytes: bytes, encoding: .utf8) ?? String(bytes: bytes, encoding: .isoLatin1) ?? String(decoding: bytes, as: UTF8.self)
    }
}
