import Foundation

/// The `.part` files of a remote's cache: downloads begun and not finished (cancelled, cut off,
/// killed, or stopped by a full disk). `cache status` counts them, `cache purge` removes them
/// with the rest, and a sync removes those of files it does not download: they only take room.
public enum PartialDownloads {
    /// One `.part` file.
    public struct Item: Sendable, Equatable {
        /// The remote path of the file it is the beginning of.
        public var path: String
        public var bytes: Int64
        /// When it last grew, in seconds since 1970.
        public var modified: Double
    }

    /// Every `.part` file in the cache of `locations`, by remote path (symbolic links are not
    /// followed); none when there is no cache. A file the manifest records as complete is a
    /// PDF whose own name ends in `.part`, not a partial download.
    public static func items(in locations: RemoteLocations, manifest: CacheManifest? = nil) -> [Item] {
        let root = locations.cache.path
        var status = stat()
        guard lstat(root, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return [] }
        let opened = manifest ?? (FileManager.default.fileExists(atPath: locations.manifest.path) ? try? CacheManifest(url: locations.manifest) : nil)
        let complete = Set(((try? opened?.all()) ?? []).map(\.path))
        var items: [Item] = []
        var folders = [""]
        while let folder = folders.popLast() {
            let directory = folder.isEmpty ? root : root + "/" + folder
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                let relative = folder.isEmpty ? name : folder + "/" + name
                guard lstat(directory + "/" + name, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    folders.append(relative)
                case S_IFREG where name.hasSuffix(".part") && name.count > 5 && !complete.contains(relative):
                    items.append(Item(path: String(relative.dropLast(5)), bytes: Int64(status.st_size),
                                      modified: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
                default:
                    continue
                }
            }
        }
        return items.sorted { $0.path < $1.path }
    }

    /// Removes the `.part` files of `items` and the manifest's notes of which version each one
    /// belonged to; returns how many were removed and their bytes.
    @discardableResult
    public static func remove(_ items: [Item], from locations: RemoteLocations, manifest: CacheManifest? = nil) -> (count: Int, bytes: Int64) {
        guard !items.isEmpty else { return (0, 0) }
        var removed: [Item] = []
        for item in items {
            guard let local = try? RemotePath.localPath(item.path, under: locations.cache.path), unlink(local + ".part") == 0 else { continue }
            removed.append(item)
        }
        let opened = manifest ?? (FileManager.default.fileExists(atPath: locations.manifest.path) ? try? CacheManifest(url: locations.manifest) : nil)
        try? opened?.forgetPartials(removed.map(\.path))
        return (removed.count, removed.reduce(0) { $0 + $1.bytes })
    }

    /// `1 partial download (2.1 MB)`, `3 partial downloads (16 MB)`, the bytes written by `format`.
    public static func describe(count: Int, bytes: Int64,
                                format: (Int64) -> String = { ByteCountFormatter.string(fromByteCount: $0, countStyle: .file) }) -> String {
        "\(count) partial download\(count == 1 ? "" : "s") (\(format(bytes)))"
    }
}
