import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import SyncEngine

struct CachePurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Remove PDFs from the cache (least recently read first).",
        discussion: """
        Partial downloads (.part files) go with the PDFs the same options choose (their age is \
        when they last grew). The .bib files are never removed; a purged PDF comes back with \
        the next sync that selects it.
        """)

    @OptionGroup var remotes: CacheRemoteOptions

    @Flag(help: "Remove every cached PDF.")
    var all = false

    @Option(help: ArgumentHelp("Remove PDFs not read (or fetched) for this long: 30d, 12h, 2w.", valueName: "age"))
    var olderThan: String?

    @Option(help: ArgumentHelp("Keep the PDFs of this group (repeatable).", valueName: "name"))
    var keepGroup: [String] = []

    func validate() throws {
        if !all && olderThan == nil && keepGroup.isEmpty { throw ValidationError("say what to purge: --all, --older-than AGE or --keep-group NAME") }
        if let olderThan, Age.seconds(olderThan) == nil { throw ValidationError("--older-than takes an age such as 30d, 12h or 2w") }
    }

    func run() throws {
        let cutoff = olderThan.flatMap(Age.seconds).map { Date().timeIntervalSince1970 - $0 }
        let config = Config.load(from: Directories().config)
        let names = try remotes.remoteNames(config: config)
        // Every group to keep is looked up before anything is removed: a group that is not
        // there would keep nothing, so a typo is an error (status 1, as for list --group).
        var keepingByName: [String: Set<String>] = [:]
        var unknown: [String] = []
        for name in names where !keepGroup.isEmpty {
            let locations = RemoteLocations(name: name)
            let library = LibraryLoader.load(paths: locations.libraryFiles).library
            let selection = SyncSelection(groups: keepGroup)
            unknown += SyncPlanner.unknownNames(in: selection, library: library).map { "\(name): \($0)" }
            let mapping = config.remotes.first { $0.name == name }?.pathMapping ?? [:]
            let (files, problems) = SyncPlanner.plan(library, selection: selection, locations: locations, mapping: mapping)
            for problem in problems { Console.error("bibread: \(problem)") }
            keepingByName[name] = Set(files.map(\.remotePath))
        }
        if !unknown.isEmpty {
            for message in unknown { Console.error("bibread: \(message); nothing was purged") }
            throw ExitStatus.problems
        }
        let cancel = CancelOnInterrupt()
        for name in names {
            let locations = RemoteLocations(name: name)
            let keeping = keepingByName[name] ?? []
            // Not while a sync of the remote writes its cache: a file it just fetched and
            // recorded would go (one writer per cache at a time).
            let lock: SyncLock
            do {
                lock = try SyncLock.acquire(locations, wait: true, waiting: { holder in
                    Console.error("A sync of '\(name)' is running (\(holder)); waiting for it to end before purging (Ctrl-C stops waiting)")
                }, failedToLock: { Console.error("bibread: \($0)") }, isCancelled: cancel.isCancelled)
            } catch let error as SyncLockError {
                Console.error("bibread: \(error)")
                throw ExitCode(130)
            }
            defer { lock.release() }
            func chosen(_ path: String, lastUsed: Double) -> Bool {
                if keeping.contains(path) { return false }
                if all || !keepGroup.isEmpty && cutoff == nil { return true }
                if let cutoff { return lastUsed < cutoff }
                return false
            }
            let (paths, bytes) = CachePolicy.purge(locations, keeping: keeping, where: { chosen($0.path, lastUsed: $0.lastUsed) })
            let partial = PartialDownloads.remove(PartialDownloads.items(in: locations).filter { chosen($0.path, lastUsed: $0.modified) },
                                                  from: locations)
            let partialText = partial.count == 0 ? "" : " and \(PartialDownloads.describe(count: partial.count, bytes: partial.bytes, format: ByteCount.format))"
            Console.print("\(name): removed \(paths.count) PDF\(paths.count == 1 ? "" : "s") (\(ByteCount.format(bytes)))\(partialText)")
        }
    }
}

/// Ages written for people: `30d`, `12h`, `2w`, `90m`.
private enum Age {
    static func seconds(_ text: String) -> Double? {
        guard let unit = text.last, let value = Double(text.dropLast()), value >= 0 else { return nil }
        switch unit {
        case "m": return value * 60
        case "h": return value * 3600
        case "d": return value * 86400
        case "w": return value * 604_800
        default: return nil
        }
    }
}
