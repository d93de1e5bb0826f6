import ArgumentParser
import BibModel
import Foundation
import Reader
import SyncEngine

/// `bibread cache`: what the PDF cache holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or purge the PDF cache of synced remotes.",
        subcommands: [CacheStatusCommand.self, CachePurgeCommand.self],
        defaultSubcommand: CacheStatusCommand.self)
}

/// The remotes a cache command works on: the one named, else every configured or synced one.
struct CacheRemoteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("A remote's name (default: every remote).", valueName: "remote"))
    var remote: String?

    /// The remote named, or every remote known here (configured, synced, or with a cache); a
    /// name none of them has is a usage error (exit 64), so that nothing is made for a typo.
    func remoteNames(config: Config) throws -> [String] {
        let names = RemoteLocations.knownNames(configured: config.remotes)
        guard let remote else { return names.sorted() }
        guard names.contains(remote) else {
            Console.error("bibread: no remote named '\(remote)'\(names.isEmpty ? "" : " (remotes: \(names.sorted().joined(separator: ", ")))")")
            throw ExitCode(64)
        }
        return [remote]
    }
}

struct CacheStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Size, files and references of the cache.",
        discussion: "Partial downloads (.part files a sync will resume) are counted apart from the PDFs.")

    @OptionGroup var remotes: CacheRemoteOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let config = Config.load(from: Directories().config)
        let names = try remotes.remoteNames(config: config)
        if names.isEmpty && !json {
            let root = RemoteLocations.cachesRoot().path
            Console.print("No remotes synced yet, so no PDFs cached; 'bibread sync URL' brings a library and its PDFs (into \(root))")
        }
        var report: [[String: Any]] = []
        for name in names {
            let locations = RemoteLocations(name: name)
            let items = CachePolicy.items(in: locations)
            let partial = PartialDownloads.items(in: locations)
            let keys = CacheReferences.keys(for: items.map(\.path), locations: locations)
            let bytes = items.reduce(Int64(0)) { $0 + $1.bytes }
            let partialBytes = partial.reduce(Int64(0)) { $0 + $1.bytes }
            if json {
                report.append(["remote": name, "folder": locations.cache.path, "bytes": bytes, "limit": config.cacheLimit,
                               "files": items.map { item -> [String: Any] in
                    ["path": item.path, "bytes": item.bytes, "references": keys[item.path] ?? []]
                }, "partialBytes": partialBytes, "partial": partial.map { ["path": $0.path, "bytes": $0.bytes] }])
            } else {
                let partialText = partial.isEmpty ? "" : ", and \(PartialDownloads.describe(count: partial.count, bytes: partialBytes, format: ByteCount.format))"
                Console.print("\(name): \(items.count) PDF\(items.count == 1 ? "" : "s"), \(ByteCount.format(bytes)) of \(ByteCount.format(config.cacheLimit)) in \(locations.cache.path)\(partialText)")
                for item in items {
                    Console.print("  \(ByteCount.format(item.bytes).padding(toLength: 9, withPad: " ", startingAt: 0)) \(item.path)  \((keys[item.path] ?? []).joined(separator: ", "))")
                }
                for item in partial {
                    Console.print("  \(ByteCount.format(item.bytes).padding(toLength: 9, withPad: " ", startingAt: 0)) \(item.path)  (partial download)")
                }
            }
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
        }
    }
}

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
enum Age {
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

/// Which references link each cached file.
enum CacheReferences {
    static func keys(for paths: [String], locations: RemoteLocations) -> [String: [String]] {
        let library = LibraryLoader.load(paths: locations.libraryFiles).library
        let config = Config.load(from: Directories().config)
        let mapping = config.remotes.first { $0.name == locations.name }?.pathMapping ?? [:]
        let (files, _) = SyncPlanner.plan(library, selection: SyncSelection(allPDFs: true), locations: locations, mapping: mapping)
        var result: [String: [String]] = [:]
        let wanted = Set(paths)
        for file in files where wanted.contains(file.remotePath) { result[file.remotePath] = file.keys }
        return result
    }
}
