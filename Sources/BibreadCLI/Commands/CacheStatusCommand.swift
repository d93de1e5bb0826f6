import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import SyncEngine

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

/// Which references link each cached file.
private enum CacheReferences {
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
