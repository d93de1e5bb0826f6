import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// The `.part` files of a cache: what counts as one, and removing them with their notes.
@Suite("partial downloads")
struct PartialDownloadsTests {
    @Test func onlyUnfinishedDownloadsCountAndLinksAreNotFollowed() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let locations = RemoteLocations(name: "lab", environment: Fixtures.isolatedEnvironment(under: root))
        #expect(PartialDownloads.items(in: locations).isEmpty, "no cache folder: nothing, and nothing made")
        #expect(!FileManager.default.fileExists(atPath: locations.cache.path))

        let manifest = try CacheManifest(url: locations.manifest)
        let papers = locations.cache.appendingPathComponent("papers")
        try FileManager.default.createDirectory(at: papers, withIntermediateDirectories: true)
        try Data(count: 300).write(to: papers.appendingPathComponent("a.pdf.part"))
        try Data(count: 100).write(to: locations.cache.appendingPathComponent("b.pdf.part"))
        // A PDF whose own name ends in .part, recorded as complete, is not a partial download.
        try Data(count: 50).write(to: locations.cache.appendingPathComponent("notes.part"))
        try manifest.store(CacheManifest.Record(path: "notes.part", size: 50, version: "v", modified: nil, fetchedAt: 1, lastRead: nil))
        try manifest.startPartials(["papers/a.pdf": "v1", "b.pdf": "v2"])
        // A linked folder is not walked into.
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data(count: 10).write(to: elsewhere.appendingPathComponent("c.pdf.part"))
        try FileManager.default.createSymbolicLink(at: locations.cache.appendingPathComponent("linked"), withDestinationURL: elsewhere)

        let items = PartialDownloads.items(in: locations)
        #expect(items.map(\.path) == ["b.pdf", "papers/a.pdf"])
        #expect(items.map(\.bytes) == [100, 300])
        let removed = PartialDownloads.remove(items.filter { $0.path == "papers/a.pdf" }, from: locations)
        #expect(removed.count == 1 && removed.bytes == 300)
        #expect(PartialDownloads.items(in: locations).map(\.path) == ["b.pdf"])
        #expect(try manifest.partialVersions() == ["b.pdf": "v2"])
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("c.pdf.part").path))
        #expect(PartialDownloads.describe(count: 2, bytes: 2_100_000, format: { "\($0) B" }) == "2 partial downloads (2100000 B)")
    }
}
