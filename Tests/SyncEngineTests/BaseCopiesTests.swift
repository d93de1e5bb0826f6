import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

/// The last synced copies kept for merging: one per remote path, whole or not at all, kept
/// after each download and upload, against the real servers (issue 28).
@Suite("base copies")
struct BaseCopiesTests {
    static let library = UploadTests.library
    static let before = UploadTests.before

    @Test("The last synced copy and its version are kept after a sync's download and after an upload, and replace the one before",
          arguments: UploadRig.Kind.allCases)
    func theBaseCopyIsKeptAfterDownloadAndUpload(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.before])
        let locations = RemoteLocations(name: rig.remote.name, environment: rig.environment)
        #expect(locations.baseCopy(of: Self.library) == nil)
        let summary = try Syncer(remote: rig.remote, locations: locations, transport: rig.transport, session: rig.session)
            .run(SyncOptions(), events: { _ in }, isCancelled: { false })
        #expect(summary.succeeded, "\(summary)")
        let downloaded = try #require(locations.baseCopy(of: Self.library))
        #expect(downloaded.contents == Self.before)
        #expect(try rig.transport.download(Self.library)?.version == downloaded.version)

        let uploaded = Array("@article{a, title = {Uploaded}}\n".utf8)
        let version = try locations.baseCopies.upload(uploaded, to: Self.library, replacing: downloaded.version, through: rig.transport)
        #expect(locations.baseCopy(of: Self.library) == VersionedContents(contents: uploaded, version: version))
        // A refused upload keeps the base it was refused against.
        try rig.writeAsAnotherClient(Array("@article{a, title = {Theirs, longer}}\n".utf8), to: Self.library)
        #expect(throws: TransportError.remoteChanged(Self.library)) {
            try locations.baseCopies.upload(Array("x".utf8), to: Self.library, replacing: version, through: rig.transport)
        }
        #expect(locations.baseCopy(of: Self.library) == VersionedContents(contents: uploaded, version: version))
        // The next sync brings their version, and it becomes the base.
        let next = try Syncer(remote: rig.remote, locations: locations, transport: rig.transport, session: rig.session)
            .run(SyncOptions(), events: { _ in }, isCancelled: { false })
        #expect(next.succeeded, "\(next)")
        let synced = try #require(locations.baseCopy(of: Self.library))
        #expect(synced.contents == rig.remoteBytes(Self.library))
        #expect(try rig.transport.download(Self.library)?.version == synced.version)
    }

    @Test("Paths that a flattened name would confuse keep copies of their own; a long path gets one too")
    func pathsKeepTheirOwnCopies() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copies = BaseCopies(folder: folder.appendingPathComponent(".base"))
        let paths = ["sub/library.bib", "sub_library.bib", "sub%2Flibrary.bib", String(repeating: "long/", count: 60) + "library.bib"]
        for (index, path) in paths.enumerated() {
            try copies.save(VersionedContents(contents: Array("copy \(index)\n".utf8), version: RemoteVersion("\"\(index)\"")), of: path)
        }
        for (index, path) in paths.enumerated() {
            #expect(copies.copy(of: path) == VersionedContents(contents: Array("copy \(index)\n".utf8), version: RemoteVersion("\"\(index)\"")))
        }
        #expect(copies.copy(of: "other.bib") == nil)
    }

    @Test("A copy whose bytes were cut or changed is not given back as a base")
    func aDamagedCopyIsNotGivenBack() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copies = BaseCopies(folder: folder)
        let bytes = Array("@article{a, title = {A}}\r\n\u{00e9}".utf8) + [0xFF, 0x00]
        try copies.save(VersionedContents(contents: bytes, version: RemoteVersion("rev1")), of: "library.bib")
        #expect(copies.copy(of: "library.bib")?.contents == bytes)
        let file = copies.file(for: "library.bib")
        let whole = try Data(contentsOf: file)
        try whole.dropLast(3).write(to: file)
        #expect(copies.copy(of: "library.bib") == nil)
        var changed = whole
        changed[changed.count - 5] ^= 0x20
        try changed.write(to: file)
        #expect(copies.copy(of: "library.bib") == nil)
    }
}
