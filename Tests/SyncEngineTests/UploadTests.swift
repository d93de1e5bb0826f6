import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

#if canImport(Glibc)
import Glibc
#endif

/// Conditional uploads (issue 28, two-way sync: the transport half) against real servers on
/// 127.0.0.1: lighttpd's writable WebDAV, sshd, the Dropbox stand-in, and a folder.
@Suite("conditional uploads against real servers")
struct UploadTests {
    static let library = "library.bib"
    static let before = Array("@article{a, title = {Before}}\n".utf8)

    @Test("An upload over the version the change was based on replaces the file, and gives the version the remote now has",
          arguments: UploadRig.Kind.allCases)
    func uploadOverTheUnchangedVersion(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.before])
        let base = try #require(try rig.transport.download(Self.library))
        #expect(base.contents == Self.before)
        let after = Array("@article{a, title = {After}, read = {1}}\n".utf8)
        let version = try rig.transport.upload(after, to: Self.library, replacing: base.version)
        #expect(rig.remoteBytes(Self.library) == after)
        #expect(version != base.version)
        // The version given is the file's: it reads back with it, and replaces it in turn.
        #expect(try rig.transport.download(Self.library) == VersionedContents(contents: after, version: version))
        let third = Array("@article{a, title = {Third}}\n".utf8)
        _ = try rig.transport.upload(third, to: Self.library, replacing: version)
        #expect(rig.remoteBytes(Self.library) == third)
        #expect(rig.otherFiles(than: Self.library).isEmpty, "\(rig.otherFiles(than: Self.library))")
    }

    @Test("Uploads of the same size one right after another each replace the file (none is taken for unchanged by its size and time)",
          arguments: UploadRig.Kind.allCases)
    func sameSizeUploadsInQuickSuccessionAllLand(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.before])
        var version = try #require(try rig.transport.download(Self.library)).version
        // The same size each time, within a second or two: what a time kept to the second
        // (rclone's webdav backend) cannot tell apart.
        for round in 0..<5 {
            let next = Array("@article{a, title = {Round \(round)}}\n".utf8)
            version = try rig.transport.upload(next, to: Self.library, replacing: version)
            #expect(rig.remoteBytes(Self.library) == next, "\(kind) round \(round)")
        }
    }

    @Test("A change another client made in between (the same size) is not overwritten: remoteChanged, and nothing is written",
          arguments: UploadRig.Kind.allCases)
    func aChangeMadeMeanwhileIsRefused(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.before])
        let base = try #require(try rig.transport.download(Self.library))
        // As long as ours, so that only a version or a hash tells them apart.
        let theirs = Array("@article{a, title = {Theirs}}\n".utf8)
        #expect(theirs.count == Self.before.count)
        try rig.writeAsAnotherClient(theirs, to: Self.library)
        expectRefused(rig, Self.library, replacing: base.version, leaving: theirs)
        #expect(rig.otherFiles(than: Self.library).isEmpty, "\(rig.otherFiles(than: Self.library))")
    }

    @Test("Creating a file that is not there works; creating one that appeared meanwhile is refused and leaves it",
          arguments: UploadRig.Kind.allCases)
    func creatingAFileThatAppearedMeanwhileIsRefused(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.before])
        let created = Array("@book{new, title = {New}}\n".utf8)
        #expect(try rig.transport.download("new.bib") == nil)
        let version = try rig.transport.upload(created, to: "new.bib", replacing: nil)
        #expect(rig.remoteBytes("new.bib") == created)
        #expect(try rig.transport.download("new.bib")?.version == version)

        let theirs = Array("@book{other, title = {Theirs}}\n".utf8)
        try rig.writeAsAnotherClient(theirs, to: "appeared.bib")
        expectRefused(rig, "appeared.bib", replacing: nil, leaving: theirs)
    }

    @Test("A file removed meanwhile is not written back over its old version", arguments: UploadRig.Kind.allCases)
    func aFileRemovedMeanwhileIsNotWrittenBack(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [Self.library: Self.before])
        let base = try #require(try rig.transport.download(Self.library))
        try FileManager.default.removeItem(at: rig.remoteRoot.appendingPathComponent(Self.library))
        expectRefused(rig, Self.library, replacing: base.version, leaving: nil)
    }

    @Test("An SFTP upload removes the temporary files that killed uploads left, once they are an hour old, and only ours")
    func sftpRemovesAbandonedTemporaryFiles() throws {
        let now = Date()
        let old = SFTPTransport.temporaryName(startedAt: now.addingTimeInterval(-2 * SFTPTransport.abandonedUploadAge))
        let recent = SFTPTransport.temporaryName(startedAt: now.addingTimeInterval(-60))
        let lookalike = ".bibread-upload-12-not*ours.part"
        let rig = try UploadRig(.sftp, files: [Self.library: Self.before, old: [1], recent: [2], lookalike: [3]])
        let base = try #require(try rig.transport.download(Self.library))
        _ = try rig.transport.upload(Array("@article{a, title = {After}}\n".utf8), to: Self.library, replacing: base.version)
        #expect(rig.otherFiles(than: Self.library) == [lookalike, recent].sorted())
    }

    /// Expects an upload to `path` over `version` to be refused as ``TransportError/remoteChanged(_:)``,
    /// with `left` (nil: no file) still there.
    private func expectRefused(_ rig: UploadRig, _ path: String, replacing version: RemoteVersion?, leaving left: [UInt8]?,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try rig.transport.upload(Array("@article{a, title = {Mine!}}\n".utf8), to: path, replacing: version)
        } throws: { $0 as? TransportError == .remoteChanged(path) }
        #expect(rig.remoteBytes(path) == left, sourceLocation: sourceLocation)
    }
}
