import Foundation

extension Syncer {
    /// Removes the `.part` files of PDFs this sync does not download (no longer selected, or
    /// current by now): nothing would resume them, and they take room. Says so when there were any.
    func dropPartialDownloads(except wanted: [RemoteFile], manifest: CacheManifest, events: (SyncEvent) -> Void) {
        let keep = Set(wanted.map(\.path))
        let unwanted = PartialDownloads.items(in: locations, manifest: manifest).filter { !keep.contains($0.path) }
        let (count, bytes) = PartialDownloads.remove(unwanted, from: locations, manifest: manifest)
        guard count > 0 else { return }
        events(.notice("removed \(PartialDownloads.describe(count: count, bytes: bytes)) of PDFs this sync does not download"))
    }

    /// The disk of the cache is full: removes the remote's partial downloads of `paths` (all of
    /// them when nil), which cannot finish and take the room every other write needs, and says
    /// where the disk is full and what was freed.
    func freeRoom(partialDownloadsOf paths: Set<String>? = nil, manifest: CacheManifest?) -> DiskFull {
        let available = DiskFull.available(under: locations.cache.path)
        let items = PartialDownloads.items(in: locations, manifest: manifest).filter { paths?.contains($0.path) ?? true }
        let (count, bytes) = PartialDownloads.remove(items, from: locations, manifest: manifest)
        return DiskFull(folder: locations.cache.path, available: available, freedFiles: count, freedBytes: bytes)
    }
}
