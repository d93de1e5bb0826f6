import ArgumentParser
import Foundation
import SyncEngine

/// `bibread-dev upload`: one conditional upload of a file to a remote, through the transport a
/// push uses (run by the crash-safety tests of uploads, which kill it with SIGKILL at random
/// moments and check that the remote file is the old or the new, never a part). Prints the
/// version the remote gave the file; exits 3 when the remote file was another version.
struct UploadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a file to a remote, only over the version given (crash tests of uploads).")

    @Argument(help: "The remote's URL (https://, sftp://, dropbox:, file://).")
    var url: String

    @Argument(help: "The path of the file on the remote, from its root.")
    var path: String

    @Argument(help: "The local file to upload.")
    var file: String

    @Option(help: "The version the upload replaces (an ETag, a Dropbox rev, or sha256:… size:…); none: create the file.")
    var replacing: String?

    @Option(help: "Dropbox's API base (a local stand-in).")
    var apiBase: String?

    @Option(help: "The SSH private key for an sftp:// remote.")
    var privateKey: String?

    @Option(help: "The known-hosts file for an sftp:// remote.")
    var knownHosts: String?

    func run() throws {
        var remote = try Remote(url: url)
        if let apiBase { remote.apiBase = apiBase }
        if let privateKey { remote.credentials = .sshKey(privateKey: privateKey, publicKey: nil) }
        remote.knownHosts = knownHosts
        let transport = try TransportFactory.make(remote, session: try CurlSession())
        guard let uploading = transport as? any UploadingTransport else {
            throw ValidationError("\(remote.kind.rawValue) remotes cannot be written to")
        }
        let contents = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        do {
            let version = try uploading.upload(contents, to: path, replacing: replacing.map(RemoteVersion.init))
            print(version.token)
        } catch TransportError.remoteChanged(let changed) {
            FileHandle.standardError.write(Data("\(changed) changed on the remote\n".utf8))
            throw ExitCode(3)
        }
    }
}
