import Foundation

/// What the cache holds, and removing files from it: least recently read first, never a file
/// of the current selection.
public enum CachePolicy {
    /// One cached file with its facts.
    public struct Item: Sendable, Equatable {
        public var path: String
        public var bytes: Int64
        public var lastUsed: Double
    }

    /// The files in a remote's cache (from its manifest, checked against the disk).
    public static func items(in locations: RemoteLocations) -> [Item] {
        guard FileManager.default.fileExists(atPath: locations.manifest.path),
              let manifest = try? CacheManifest(url: locations.manifest), let records = try? manifest.all() else { return [] }
        return records.compactMap { record in
            guard let url = try? locations.cachedFile(record.path), FileManager.default.fileExists(atPath: url.path) else { return nil }
            return Item(path: record.path, bytes: record.size, lastUsed: record.lastRead ?? record.fetchedAt)
        }
    }

    /// Removes files (and their records), least recently used first, until `shouldStop` says
    /// enough; files in `keeping` stay. Returns the removed paths and bytes.
    @discardableResult
    public static func purge(_ locations: RemoteLocations, keeping: Set<String>,
                             where selected: (Item) -> Bool = { _ in true },
                             until shouldStop: (Int64) -> Bool = { _ in false }) -> (paths: [String], bytes: Int64) {
        // No manifest, nothing cached: opening one would make the folder and the database.
        guard FileManager.default.fileExists(atPath: locations.manifest.path),
              let manifest = try? CacheManifest(url: locations.manifest) else { return ([], 0) }
        var held = items(in: locations).reduce(Int64(0)) { $0 + $1.bytes }
        var removed: [String] = []
        var freed: Int64 = 0
        for item in items(in: locations).sorted(by: { $0.lastUsed < $1.lastUsed }) {
            if shouldStop(held) { break }
            guard !keeping.contains(item.path), selected(item), let url = try? locations.cachedFile(item.path) else { continue }
            // The record goes first: a crash in between leaves a file the next sync re-records,
            // never a record of a missing file that looks current.
            try? manifest.remove(item.path)
            try? FileManager.default.removeItem(at: url)
            removed.append(item.path)
            freed += item.bytes
            held -= item.bytes
        }
        return (removed, freed)
    }

    /// Trims the cache to `limit` bytes (least recently read first, keeping `keeping`).
    ///
    /// `recordedBytes` is the manifest's total when the caller has just read it (a sync, at
    /// its end): under the limit, the manifest is then not opened again.
    public static func enforceLimit(_ limit: Int64, locations: RemoteLocations, keeping: Set<String>,
                                    recordedBytes: Int64? = nil, report: (String) -> Void) {
        // The records' total bounds what is on disk, so under the limit no file needs a look.
        if let recordedBytes, recordedBytes <= limit { return }
        // No manifest, nothing cached.
        guard FileManager.default.fileExists(atPath: locations.manifest.path) else { return }
        if let manifest = try? CacheManifest(url: locations.manifest), let recorded = try? manifest.recordedBytes(), recorded <= limit {
            return
        }
        let held = items(in: locations).reduce(Int64(0)) { $0 + $1.bytes }
        guard held > limit else { return }
        let (paths, bytes) = purge(locations, keeping: keeping, until: { $0 <= limit })
        if !paths.isEmpty {
            report("the cache was over its limit: removed \(paths.count) least recently read PDF\(paths.count == 1 ? "" : "s") (\(bytes) bytes)")
        }
    }
}
