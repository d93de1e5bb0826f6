import BibreadTestSupport
import Foundation
@testable import SyncEngine

#if canImport(Glibc)
import Glibc
#endif

/// What went wrong setting a rig up.
struct RigError: Error, CustomStringConvertible {
    let description: String
}

/// One remote of each kind that can be written to, on a real server on 127.0.0.1 (lighttpd's
/// writable WebDAV, sshd, the Dropbox stand-in) or a folder, serving a fresh folder, with the
/// transport a push uses; removed at the end. rclone twice: its `local` backend on the folder,
/// and its `webdav` backend on lighttpd serving it (a configuration of the test's own).
final class UploadRig {
    enum Kind: String, CaseIterable, Sendable {
        case webdav, dropbox, sftp, folder, rclone, rcloneWebDAV
    }

    static let dropboxToken = "token-upload"

    let kind: Kind
    let root: URL
    /// The folder the server serves: what the remote holds.
    let remoteRoot: URL
    /// XDG folders of this "machine".
    let environment: [String: String]
    let remote: Remote
    let session: CurlSession
    let transport: any UploadingTransport
    private let stopServer: () -> Void

    init(_ kind: Kind, files: [String: [UInt8]] = [:]) throws {
        self.kind = kind
        root = try Fixtures.temporaryDirectory()
        remoteRoot = root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remoteRoot, withIntermediateDirectories: true)
        for (path, bytes) in files {
            let file = remoteRoot.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
        }
        let rclone = try RcloneConfig(in: root.appendingPathComponent("rclone"))
        environment = Fixtures.isolatedEnvironment(under: root).merging(["BIBREAD_DROPBOX_TOKEN": Self.dropboxToken]) { $1 }
            .merging(rclone.environment) { $1 }
        var remote: Remote
        switch kind {
        case .webdav:
            let server = try WebDAVServer.start(root: remoteRoot, writable: true)
            remote = try Remote(url: server.baseURL.absoluteString)
            stopServer = { server.stop() }
        case .dropbox:
            let server = try DropboxStandIn.start(root: remoteRoot, token: Self.dropboxToken)
            remote = Remote(name: "dbx", kind: .dropbox, url: "dropbox:")
            remote.apiBase = server.apiBase.absoluteString
            stopServer = { server.stop() }
        case .sftp:
            let server = try SFTPServer.start(root: remoteRoot)
            remote = try Remote(url: server.url.absoluteString)
            remote.credentials = .sshKey(privateKey: server.privateKeyPath, publicKey: server.publicKeyPath)
            remote.knownHosts = server.knownHostsPath
            stopServer = { server.stop() }
        case .folder:
            remote = try Remote(url: remoteRoot.path)
            stopServer = {}
        case .rclone:
            try rclone.addLocal("disk")
            remote = try Remote(url: "rclone:disk:\(remoteRoot.path)")
            stopServer = {}
        case .rcloneWebDAV:
            let server = try WebDAVServer.start(root: remoteRoot, writable: true)
            try rclone.addWebDAV("dav", url: server.baseURL)
            remote = try Remote(url: "rclone:dav:")
            stopServer = { server.stop() }
        }
        remote.name = "push-\(kind.rawValue)"
        self.remote = remote
        session = try CurlSession()
        guard let transport = try TransportFactory.make(remote, session: session, environment: environment) as? any UploadingTransport else {
            throw RigError(description: "\(kind) remotes cannot be written to")
        }
        self.transport = transport
    }

    deinit {
        stopServer()
        try? FileManager.default.removeItem(at: root)
    }

    /// The bytes the remote holds at `path`; nil when there is no file.
    func remoteBytes(_ path: String) -> [UInt8]? {
        (try? Data(contentsOf: remoteRoot.appendingPathComponent(path))).map { Array($0) }
    }

    /// Whether the remote holds a folder (not a file, not a link) at `path`.
    func isFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(remoteRoot.appendingPathComponent(path).path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// Writes `bytes` at `path` as another client would: a new file renamed into place.
    func writeAsAnotherClient(_ bytes: [UInt8], to path: String) throws {
        let file = remoteRoot.appendingPathComponent(path)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".other-client-\(UUID().uuidString)")
        try Data(bytes).write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else { throw RigError(description: "cannot rename over \(file.path)") }
    }

    /// The arguments of `bibread-dev upload` for `path` from `file` over `version`.
    func uploadArguments(_ path: String, from file: URL, replacing version: RemoteVersion?) -> [String] {
        var arguments = ["upload", remote.url, path, file.path]
        if let version { arguments += ["--replacing", version.token] }
        if remote.kind == .dropbox { arguments += ["--api-base", remote.apiBase] }
        if case .sshKey(let key, _) = remote.credentials { arguments += ["--private-key", key] }
        if let knownHosts = remote.knownHosts { arguments += ["--known-hosts", knownHosts] }
        return arguments
    }

    /// Each entry of the remote's folder with its size, change time and inode: what differs
    /// as soon as anything there is written.
    func folderState() -> [String: [Int]] {
        FolderState.of(remoteRoot)
    }

    /// Waits until the remote's folder has not changed for half a second (a server finishing an
    /// upload whose client is gone), or ten seconds have passed.
    func waitUntilTheFolderSettles() {
        var last = folderState()
        var stableSince = Date()
        let deadline = Date().addingTimeInterval(10)
        while Date().timeIntervalSince(stableSince) < 0.5 && Date() < deadline {
            usleep(20_000)
            let now = folderState()
            if now != last {
                last = now
                stableSince = Date()
            }
        }
    }

    /// The files the remote holds beside `path`'s (leftovers of an interrupted upload).
    func otherFiles(than path: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: remoteRoot.path)) ?? []
        return names.filter { $0 != path }.sorted()
    }
}

/// `count` bytes of a pattern that `seed` sets apart from every other seed's.
func patterned(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &* 7 &+ ($0 >> 13)) ^ seed }
}
