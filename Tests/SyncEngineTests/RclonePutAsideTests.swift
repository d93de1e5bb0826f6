import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

/// rclone's `moveto` over an existing file deletes that file before it moves the new one in; a
/// kill in between left no file at all (UploadCrashTests, CI). Uploads now move the old file
/// aside (`--suffix .bibread-replaced`) instead, and whoever looks next puts it back. The state
/// a kill between the two moves leaves is made here by hand, on the real rclone (its local
/// backend, and its WebDAV backend against lighttpd).
@Suite("rclone: a replacement cut short between its two moves")
struct RclonePutAsideTests {
    static let library = "library.bib"
    static let old = Array("@article{old, title = {Old}}\n".utf8)
    static let new = Array("@article{new, title = {New}}\n".utf8)

    /// The remote as a kill between rclone's two moves leaves it: the old file aside, the new
    /// one under its temporary name, nothing at the file's own name.
    func cutShort(_ rig: UploadRig) throws {
        let folder = rig.remoteRoot
        try FileManager.default.moveItem(at: folder.appendingPathComponent(Self.library),
                                         to: folder.appendingPathComponent(Self.library + ".bibread-replaced"))
        try Data(Self.new).write(to: folder.appendingPathComponent(".bibread-upload-20261127T090000-1.part"))
        #expect(rig.remoteBytes(Self.library) == nil)
    }

    @Test("The next listing puts the old file back, and lists it", arguments: [UploadRig.Kind.rclone, .rcloneWebDAV])
    func aListingPutsItBack(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.old])
        try cutShort(rig)
        let listed = try rig.transport.list("")
        #expect(listed.map(\.path).contains(Self.library), "\(listed.map(\.path))")
        #expect(!listed.map(\.path).contains(Self.library + ".bibread-replaced"))
        #expect(rig.remoteBytes(Self.library) == Self.old)
        #expect(!rig.otherFiles(than: Self.library).contains(Self.library + ".bibread-replaced"))
    }

    @Test("The next download (a push's read of the remote) gets the old file, put back", arguments: [UploadRig.Kind.rclone, .rcloneWebDAV])
    func aDownloadPutsItBack(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.old])
        try cutShort(rig)
        let read = try #require(try rig.transport.download(Self.library))
        #expect(read.contents == Self.old)
        #expect(rig.remoteBytes(Self.library) == Self.old)
    }

    @Test("The next upload over the old version puts it back, then replaces it; nothing is left aside",
          arguments: [UploadRig.Kind.rclone, .rcloneWebDAV])
    func anUploadPutsItBackAndReplacesIt(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.old])
        let version = try #require(try rig.transport.download(Self.library)).version
        try cutShort(rig)
        let newer = Array("@article{newer, title = {Newer}}\n".utf8)
        _ = try rig.transport.upload(newer, to: Self.library, replacing: version)
        #expect(rig.remoteBytes(Self.library) == newer)
        #expect(!rig.otherFiles(than: Self.library).contains(Self.library + ".bibread-replaced"), "\(rig.otherFiles(than: Self.library))")
    }

    @Test("An upload that is not cut short leaves nothing aside; a put-aside file left after the move is not put back over the file",
          arguments: [UploadRig.Kind.rclone, .rcloneWebDAV])
    func aWholeUploadLeavesNothingAside(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.old])
        var version = try #require(try rig.transport.download(Self.library)).version
        version = try rig.transport.upload(Self.new, to: Self.library, replacing: version)
        #expect(rig.remoteBytes(Self.library) == Self.new)
        #expect(!rig.otherFiles(than: Self.library).contains { $0.hasSuffix(".bibread-replaced") }, "\(rig.otherFiles(than: Self.library))")

        // Killed after its second move but before removing what it put aside: the file is the
        // new one, and stays so; the next upload takes the stale copy away.
        try Data(Self.old).write(to: rig.remoteRoot.appendingPathComponent(Self.library + ".bibread-replaced"))
        _ = try rig.transport.list("")
        #expect(try rig.transport.download(Self.library)?.contents == Self.new)
        _ = try rig.transport.upload(Self.old, to: Self.library, replacing: version)
        #expect(rig.remoteBytes(Self.library) == Self.old)
        #expect(!rig.otherFiles(than: Self.library).contains { $0.hasSuffix(".bibread-replaced") }, "\(rig.otherFiles(than: Self.library))")
    }
}
