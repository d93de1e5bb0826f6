import BibModel
import BibreadTestSupport
import Foundation
import SyncEngine
import Testing

/// The one place that looks at the disk for linked files: at their path, in a synced library's
/// cache, only on the remote, or nowhere.
@Suite("linked file locator")
struct LinkedFileLocatorTests {
    private static func file(_ path: String) -> LinkedFile {
        LinkedFile(path: path, label: nil, fileType: nil, field: "file")
    }

    @Test func findsFilesAtTheirPathInTheCacheOnTheRemoteOrNowhere() throws {
        let root = try Fixtures.temporaryDirectory()
        let library = root.appendingPathComponent("library")
        let cache = root.appendingPathComponent("cache")
        for folder in [library, cache] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data("%PDF".utf8).write(to: library.appendingPathComponent("here.pdf"))
        try Data("%PDF".utf8).write(to: cache.appendingPathComponent("cached.pdf"))
        try FileManager.default.createDirectory(at: cache.appendingPathComponent("folder.pdf"), withIntermediateDirectories: true)

        let locator = LinkedFileLocator()
        let outside = root.appendingPathComponent("outside.pdf").path
        #expect(locator.location(of: Self.file(outside)) == .missing)
        #expect(locator.location(of: Self.file(library.path + "/here.pdf")) == .local(library.path + "/here.pdf"))
        // Not synced yet: a file only a cache would have is missing.
        #expect(locator.location(of: Self.file(library.path + "/cached.pdf")) == .missing)
        #expect(!locator.isSyncedCopy(library.path + "/library.bib"))

        locator.register(folder: library.path, as: cache.path)
        #expect(locator.isSyncedCopy(library.path + "/library.bib"))
        #expect(locator.location(of: Self.file(library.path + "/here.pdf")) == .local(library.path + "/here.pdf"))
        #expect(locator.location(of: Self.file(library.path + "/cached.pdf")) == .cached(cache.path + "/cached.pdf"))
        #expect(locator.location(of: Self.file(library.path + "/later.pdf")) == .remoteOnly)
        // A folder is not a file.
        #expect(locator.location(of: Self.file(library.path + "/folder.pdf")) == .remoteOnly)
        // A sync looked for it and the remote did not have it.
        locator.setAbsent([cache.path + "/later.pdf"], under: cache.path)
        #expect(locator.location(of: Self.file(library.path + "/later.pdf")) == .missing)
        #expect(locator.localPath(of: Self.file(library.path + "/cached.pdf")) == cache.path + "/cached.pdf")
    }

    @Test func placesAReferenceByItsPDFs() throws {
        let root = try Fixtures.temporaryDirectory()
        let bib = root.appendingPathComponent("library.bib")
        try Data("%PDF".utf8).write(to: root.appendingPathComponent("here.pdf"))
        try Data("""
        @article{here, title = {A}, file = {:here.pdf:PDF}}
        @article{remote, title = {B}, file = {:remote.pdf:PDF}}
        @article{none, title = {C}}
        """.utf8).write(to: bib)
        let library = Fixtures.library(at: bib)
        let locator = LinkedFileLocator()
        locator.register(folder: root.path + "/elsewhere", as: root.path + "/cache")
        #expect(library.entries.map { locator.place(of: $0) } == [.here, .nowhere, .nowhere])
        locator.register(folder: root.path, as: root.path + "/cache")
        #expect(library.entries.map { locator.place(of: $0) } == [.here, .remoteOnly, .nowhere])
        #expect(locator.isSynced(library))
    }
}
