import BibreadTestSupport
import Foundation
import Testing
@testable import SyncEngine

/// Making folders, removing a file only while it is the version it was, and listing a folder
/// that may not be there (issue 29: each machine's reading state in its own files under
/// `.bibread/state/` on the remote) against real servers on 127.0.0.1: lighttpd's writable
/// WebDAV, sshd, the Dropbox stand-in, and a folder.
@Suite("folders and conditional removal against real servers")
struct FolderAndRemovalTests {
    static let folder = ".bibread/state"
    static let log = ".bibread/state/machine-a-1.jsonl"
    static let first = Array("{\"op\":\"read\",\"key\":\"knuth84\"}\n".utf8)
    static let second = Array("{\"op\":\"read\",\"key\":\"knuth84\"}\n{\"op\":\"unread\",\"key\":\"lamport94\"}\n".utf8)

    /// A remote of `kind` whose state folder holds one log, uploaded in it, and its version.
    static func rigWithLog(_ kind: UploadRig.Kind) throws -> (UploadRig, RemoteVersion) {
        let rig = try UploadRig(kind)
        try rig.transport.createFolder(folder)
        return (rig, try rig.transport.upload(first, to: log, replacing: nil))
    }

    @Test("Nested folders are made (a second time changes nothing), and a new file can be uploaded into them",
          arguments: UploadRig.Kind.allCases)
    func nestedFoldersAreMade(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: ["library.bib": [1]])
        try rig.transport.createFolder(Self.folder)
        #expect(rig.isFolder(Self.folder))
        let made = [rig.folderState(), FolderState.of(rig.remoteRoot.appendingPathComponent(".bibread"))]
        try rig.transport.createFolder(Self.folder)
        try rig.transport.createFolder(".bibread")
        #expect([rig.folderState(), FolderState.of(rig.remoteRoot.appendingPathComponent(".bibread"))] == made)

        let version = try rig.transport.upload(Self.first, to: Self.log, replacing: nil)
        #expect(rig.remoteBytes(Self.log) == Self.first)
        #expect(try rig.transport.download(Self.log)?.version == version)
    }

    @Test("Names with spaces, quotes and backslashes are made and removed as given (SFTP's commands quote them)",
          arguments: UploadRig.Kind.allCases)
    func namesThatNeedQuoting(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind)
        let folder = "state of \"a\"/b\\c d"
        let file = folder + "/it's \"1\".jsonl"
        try rig.transport.createFolder(folder)
        #expect(rig.isFolder(folder))
        let version = try rig.transport.upload(Self.first, to: file, replacing: nil)
        #expect(rig.remoteBytes(file) == Self.first)
        try rig.transport.remove(file, ifVersion: version)
        #expect(rig.remoteBytes(file) == nil)
        #expect(try rig.transport.listIfPresent(folder) == [])
    }

    @Test("A file where a folder is to be made, or above it, is refused with its name, and left as it was",
          arguments: UploadRig.Kind.allCases)
    func aFileInTheWayIsRefused(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: [".bibread": Self.first, "papers/state": Self.second])
        for (path, file) in [(Self.folder, ".bibread"), ("papers/state", "papers/state")] {
            #expect {
                try rig.transport.createFolder(path)
            } throws: { error in
                guard case .folderNotCreated(let refused, let reason) = error as? TransportError else { return false }
                return refused == path && reason.contains(file) && reason.contains("is a file")
            }
        }
        #expect(rig.remoteBytes(".bibread") == Self.first)
        #expect(rig.remoteBytes("papers/state") == Self.second)
    }

    @Test("A file is removed while it is the version given; again, it is not there, which is no error",
          arguments: UploadRig.Kind.allCases)
    func removingTheVersionGivenRemovesTheFile(kind: UploadRig.Kind) throws {
        let (rig, version) = try Self.rigWithLog(kind)
        let kept = try rig.transport.upload(Self.second, to: Self.folder + "/machine-a-2.jsonl", replacing: nil)
        try rig.transport.remove(Self.log, ifVersion: version)
        #expect(rig.remoteBytes(Self.log) == nil)
        #expect(try rig.transport.list(Self.folder).map(\.path) == [Self.folder + "/machine-a-2.jsonl"])
        // Removed already (or by another machine): done.
        try rig.transport.remove(Self.log, ifVersion: version)
        try rig.transport.remove(Self.folder + "/never-there.jsonl", ifVersion: kept)
        #expect(rig.remoteBytes(Self.folder + "/machine-a-2.jsonl") == Self.second)
    }

    @Test("A file replaced since its version was given is not removed: remoteChanged, and the file stays",
          arguments: UploadRig.Kind.allCases)
    func aReplacedFileIsNotRemoved(kind: UploadRig.Kind) throws {
        let (rig, stale) = try Self.rigWithLog(kind)
        _ = try rig.transport.upload(Self.second, to: Self.log, replacing: stale)
        #expect {
            try rig.transport.remove(Self.log, ifVersion: stale)
        } throws: { $0 as? TransportError == .remoteChanged(Self.log) }
        #expect(rig.remoteBytes(Self.log) == Self.second)

        // Another client's change of the same size, which only a version or a hash tells apart.
        let current = try #require(try rig.transport.download(Self.log))
        let theirs = Self.second.map { $0 == UInt8(ascii: "k") ? UInt8(ascii: "K") : $0 }
        #expect(theirs.count == Self.second.count && theirs != Self.second)
        try rig.writeAsAnotherClient(theirs, to: Self.log)
        #expect {
            try rig.transport.remove(Self.log, ifVersion: current.version)
        } throws: { $0 as? TransportError == .remoteChanged(Self.log) }
        #expect(rig.remoteBytes(Self.log) == theirs)
    }

    @Test("listIfPresent: nil for a folder that is not there, [] for an empty one, else its files",
          arguments: UploadRig.Kind.allCases)
    func listingAFolderThatMayBeMissing(kind: UploadRig.Kind) throws {
        let rig = try UploadRig(kind, files: ["library.bib": [1]])
        #expect(try rig.transport.listIfPresent(Self.folder) == nil)
        #expect(try rig.transport.listIfPresent(".bibread") == nil)
        try rig.transport.createFolder(Self.folder)
        #expect(try rig.transport.listIfPresent(Self.folder) == [])
        let listed = try #require(try rig.transport.listIfPresent(".bibread"))
        #expect(listed.map(\.path) == [Self.folder] && listed.allSatisfy { $0.isFolder })
        _ = try rig.transport.upload(Self.first, to: Self.log, replacing: nil)
        _ = try rig.transport.upload(Self.second, to: Self.folder + "/machine-b-1.jsonl", replacing: nil)
        let files = try #require(try rig.transport.listIfPresent(Self.folder))
        #expect(files.map(\.path) == [Self.log, Self.folder + "/machine-b-1.jsonl"])
        #expect(files.map(\.size) == [Int64(Self.first.count), Int64(Self.second.count)])
        #expect(files.filter { $0.isFolder }.isEmpty)
    }

    @Test("Over WebDAV, a 412 to DELETE (If-Match fails on a file that is not there too) is no error when the file is gone, else remoteChanged")
    func webDAVPreconditionFailedForAFileThatIsGone() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("state"), withIntermediateDirectories: true)
        try Data(Self.first).write(to: root.appendingPathComponent("state/there.jsonl"))
        let server = try FaultServer.start(root: root)
        defer { server.stop() }
        // As a server that checks If-Match before it looks for the file answers (RFC 9110, 13.1.1).
        for path in ["state/gone.jsonl", "state/there.jsonl"] {
            try server.setFault(.statusWithBody(412, body: "Precondition Failed\n", method: "DELETE"), for: path)
        }
        let transport = WebDAVTransport(url: server.baseURL.absoluteString, session: try CurlSession(), credentials: .none)
        let stale = RemoteVersion("\"5f2a-1c\"")
        try transport.remove("state/gone.jsonl", ifVersion: stale)
        #expect {
            try transport.remove("state/there.jsonl", ifVersion: stale)
        } throws: { $0 as? TransportError == .remoteChanged("state/there.jsonl") }
        #expect(FileManager.default.contents(atPath: root.appendingPathComponent("state/there.jsonl").path) == Data(Self.first))
    }
}
