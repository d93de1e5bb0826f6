import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// The cache's size limit after a sync: least recently read files go first, the current
/// selection stays, and a cache under its limit is left alone.
@Suite("cache size limit")
struct CacheLimitTests {
    /// A remote's cache with four 1,000-byte files, read at times 40, 10, 30 and 20.
    final class Cache {
        let root: URL
        let locations: RemoteLocations
        let manifest: CacheManifest
        static let files = ["papers/a.pdf": 40.0, "papers/b.pdf": 10.0, "papers/c.pdf": 30.0, "papers/d.pdf": 20.0]

        init() throws {
            root = try Fixtures.temporaryDirectory()
            locations = RemoteLocations(name: "lab", environment: Fixtures.isolatedEnvironment(under: root))
            manifest = try CacheManifest(url: locations.manifest)
            for (path, lastRead) in Self.files {
                let url = try locations.cachedFile(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(repeating: 0x25, count: 1000).write(to: url)
                try manifest.store(CacheManifest.Record(path: path, size: 1000, version: "v", modified: nil, fetchedAt: 1, lastRead: lastRead))
            }
        }

        var present: [String] {
            Self.files.keys.filter { (try? locations.cachedFile($0)).map { FileManager.default.fileExists(atPath: $0.path) } ?? false }.sorted()
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func underTheLimitNothingIsRemoved() throws {
        let cache = try Cache()
        defer { cache.remove() }
        var reports: [String] = []
        CachePolicy.enforceLimit(4000, locations: cache.locations, keeping: [], report: { reports.append($0) })
        #expect(cache.present == ["papers/a.pdf", "papers/b.pdf", "papers/c.pdf", "papers/d.pdf"])
        #expect(reports.isEmpty)
    }

    @Test func overTheLimitTheLeastRecentlyReadGoFirstAndTheSelectionStays() throws {
        let cache = try Cache()
        defer { cache.remove() }
        var reports: [String] = []
        // 4,000 bytes held, 2,000 allowed: b (read at 10) is kept as selected, so d (20) and
        // c (30) go, and then the cache fits: a (40), the most recently read, stays.
        CachePolicy.enforceLimit(2000, locations: cache.locations, keeping: ["papers/b.pdf"], report: { reports.append($0) })
        #expect(cache.present == ["papers/a.pdf", "papers/b.pdf"])
        #expect(try cache.manifest.all().map(\.path) == ["papers/a.pdf", "papers/b.pdf"])
        #expect(reports == ["the cache was over its limit: removed 2 least recently read PDFs (2000 bytes)"])
    }

    @Test func aTotalJustReadByTheCallerDecidesWithoutALookAtTheCache() throws {
        let cache = try Cache()
        defer { cache.remove() }
        var reports: [String] = []
        // 4,000 bytes are held, but the caller read 1,000 from the manifest: under 2,000.
        CachePolicy.enforceLimit(2000, locations: cache.locations, keeping: [], recordedBytes: 1000, report: { reports.append($0) })
        #expect(cache.present.count == 4)
        // Over the limit, the cache itself decides.
        CachePolicy.enforceLimit(2000, locations: cache.locations, keeping: [], recordedBytes: 4000, report: { reports.append($0) })
        #expect(cache.present == ["papers/a.pdf", "papers/c.pdf"])
        #expect(reports == ["the cache was over its limit: removed 2 least recently read PDFs (2000 bytes)"])
    }

    @Test func recordsOfFilesGoneFromDiskDoNotCount() throws {
        let cache = try Cache()
        defer { cache.remove() }
        // The records say 4,000 bytes, but only a and b are still on disk: 2,000 bytes fit.
        try FileManager.default.removeItem(at: try cache.locations.cachedFile("papers/c.pdf"))
        try FileManager.default.removeItem(at: try cache.locations.cachedFile("papers/d.pdf"))
        var reports: [String] = []
        CachePolicy.enforceLimit(2000, locations: cache.locations, keeping: [], report: { reports.append($0) })
        #expect(cache.present == ["papers/a.pdf", "papers/b.pdf"])
        #expect(reports.isEmpty)
    }

    @Test func aCacheNeverSyncedIsLeftWithoutAManifest() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let locations = RemoteLocations(name: "none", environment: ["HOME": root.path, "XDG_CACHE_HOME": root.path])
        CachePolicy.enforceLimit(0, locations: locations, keeping: [], report: { _ in Issue.record("nothing to report") })
        #expect(!FileManager.default.fileExists(atPath: locations.manifest.path))
    }
}

/// The cache manifest's SQLite log outlives its connection: closing it costs no checkpoint
/// (no flush of the log and the database at the end of every sync), and the next connection
/// reads what the log holds.
@Suite("cache manifest")
struct CacheManifestTests {
    @Test func recordsInTheLogOutliveTheConnectionThatWroteThem() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent(".bibread-cache.sqlite")
        let record = CacheManifest.Record(path: "papers/a.pdf", size: 1234, version: "\"v1\"", modified: 5, fetchedAt: 6, lastRead: nil)
        do {
            let manifest = try CacheManifest(url: url)
            try manifest.store(record)
        }
        let log = root.appendingPathComponent(".bibread-cache.sqlite-wal").path
        let attributes = try FileManager.default.attributesOfItem(atPath: log)
        #expect((attributes[.size] as? Int ?? 0) > 0, "the log is left, not checkpointed into the database, at close")
        #expect(try CacheManifest(url: url).all() == [record])
        #expect(try CacheManifest(url: url).recordedBytes() == 1234)
    }
}
