import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway OpenSSH server on 127.0.0.1 offering SFTP (internal-sftp), for tests.
///
/// Everything lives in a fresh temporary folder: an ed25519 host key, an ed25519 client key pair
/// without passphrase, an `authorized_keys` holding the client key, the sshd configuration and a
/// `known_hosts` naming the host key as `[127.0.0.1]:PORT`. Only public-key login as the current
/// user is accepted. `url` addresses `root` by its absolute path on the server.
///
/// curl/libssh2 check a host key only against the known-hosts file they are given (the curl
/// program: `~/.ssh/known_hosts` only, and none at all when that file is missing); the product
/// sets `CURLOPT_SSH_KNOWNHOSTS` to `knownHostsPath`.
public final class SFTPServer: @unchecked Sendable {
    /// `sftp://USER@127.0.0.1:PORT/absolute/path/of/root` (no trailing slash).
    public let url: URL
    public let user: String
    public let port: Int
    public let root: URL
    public let privateKeyPath: String
    public let publicKeyPath: String
    public let knownHostsPath: String
    /// sshd's log (it runs with -e: connections, authentications, errors).
    public let logPath: String
    /// The host's public key, as in `known_hosts` ("ssh-ed25519 AAAA…").
    public let hostPublicKey: String
    private let directory: URL
    private let process: ServerProcess

    private init(directory: URL, process: ServerProcess, root: URL, user: String, port: Int, hostPublicKey: String) {
        self.directory = directory
        self.process = process
        self.root = root
        self.user = user
        self.port = port
        self.hostPublicKey = hostPublicKey
        privateKeyPath = directory.appendingPathComponent("client_ed25519").path
        publicKeyPath = directory.appendingPathComponent("client_ed25519.pub").path
        knownHostsPath = directory.appendingPathComponent("known_hosts").path
        logPath = directory.appendingPathComponent("sshd.log").path
        let rootPath = root.standardizedFileURL.path
        let encoded = rootPath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? rootPath
        url = URL(string: "sftp://\(user)@127.0.0.1:\(port)\(encoded)")!
    }

    public static func start(root: URL) throws -> SFTPServer {
        let sshd = "/usr/sbin/sshd"  // sshd re-executes itself, so it must be started by absolute path
        guard FileManager.default.isExecutableFile(atPath: sshd) else {
            throw TestServerError("\(sshd) is not installed (run scripts/install-deps.sh test)")
        }
        let keygen = try ServerSupport.program("ssh-keygen", preferring: ["/usr/bin/ssh-keygen"])
        let python = try ServerSupport.python3()
        let supervisor = try ServerSupport.script("supervise.py")
        guard FileManager.default.fileExists(atPath: root.path) else { throw TestServerError("SFTPServer: no folder \(root.path)") }
        guard let account = getpwuid(geteuid()) else { throw TestServerError("SFTPServer: no user name for uid \(geteuid())") }
        let user = String(cString: account.pointee.pw_name)

        // The privilege separation folder sshd insists on (normally made by its service unit).
        if !FileManager.default.fileExists(atPath: "/run/sshd") {
            try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o755])
        }

        let directory = try Fixtures.temporaryDirectory()
        do {
            try ServerSupport.checkConfigurable(directory.path, for: "sshd")
            let hostKey = directory.appendingPathComponent("host_ed25519")
            let clientKey = directory.appendingPathComponent("client_ed25519")
            try generateKey(keygen, at: hostKey.path, comment: "bibread-test-host")
            try generateKey(keygen, at: clientKey.path, comment: "bibread-test-client")
            let clientPublic = try String(contentsOf: URL(fileURLWithPath: clientKey.path + ".pub"), encoding: .utf8)
            try ServerSupport.write(clientPublic, to: directory.appendingPathComponent("authorized_keys"))
            let hostPublic = try String(contentsOf: URL(fileURLWithPath: hostKey.path + ".pub"), encoding: .utf8)
                .split(separator: " ").prefix(2).joined(separator: " ")

            let logPath = directory.appendingPathComponent("sshd.log").path
            var lastError: Error?
            for _ in 0..<5 {
                let port = try Loopback.freePort()
                let configuration = directory.appendingPathComponent("sshd_config")
                try ServerSupport.write(config(directory: directory, port: port, user: user), to: configuration)
                try ServerSupport.write("[127.0.0.1]:\(port) \(hostPublic)\n", to: directory.appendingPathComponent("known_hosts"),
                                        permissions: 0o644)
                let process = try ServerProcess.spawn(python, ["-u", supervisor, "--parent-pid", String(getpid()), "--",
                                                               sshd, "-D", "-e", "-f", configuration.path], logPath: logPath)
                do {
                    try ServerSupport.waitUntilReady("SFTPServer (sshd on 127.0.0.1:\(port))", process: process) {
                        ServerSupport.read(logPath).contains("Server listening on 127.0.0.1 port \(port).") && Loopback.accepts(port)
                    }
                    return SFTPServer(directory: directory, process: process, root: root, user: user, port: port,
                                      hostPublicKey: hostPublic)
                } catch {
                    lastError = error
                    // Another program took the port between our check and sshd's bind: retry.
                    guard ServerSupport.read(logPath).contains("Address already in use") else { throw error }
                    try? FileManager.default.removeItem(atPath: logPath)
                }
            }
            throw lastError ?? TestServerError("SFTPServer: no free port")
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private static func generateKey(_ keygen: String, at path: String, comment: String) throws {
        let logPath = path + ".keygen.log"
        let process = try ServerProcess.spawn(keygen, ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path],
                                              logPath: logPath)
        let deadline = Date().addingTimeInterval(ServerSupport.startTimeout)
        while !process.hasExited && Date() < deadline { usleep(5_000) }
        process.stop()
        guard process.exitStatus == 0, FileManager.default.fileExists(atPath: path) else {
            throw TestServerError("ssh-keygen failed for \(path) (status \(process.exitStatus ?? -1))\(ServerSupport.logExcerpt(logPath))")
        }
        try? FileManager.default.removeItem(atPath: logPath)
    }

    private static func config(directory: URL, port: Int, user: String) -> String {
        let dir = directory.path
        return """
        # A throwaway sshd for bibread's tests: loopback only, public keys only, SFTP only.
        ListenAddress 127.0.0.1
        Port \(port)
        HostKey \(dir)/host_ed25519
        PidFile \(dir)/sshd.pid
        AuthorizedKeysFile \(dir)/authorized_keys
        AllowUsers \(user)
        AuthenticationMethods publickey
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        PermitRootLogin prohibit-password
        UsePAM no
        StrictModes no
        UseDNS no
        PrintMotd no
        X11Forwarding no
        AllowTcpForwarding no
        AllowAgentForwarding no
        PermitTunnel no
        MaxStartups 100:30:200
        Subsystem sftp internal-sftp

        """
    }

    /// The `sftp://` URL of a file or folder below `root`, given by its relative path.
    public func url(for relativePath: String) -> URL { ServerSupport.url(url, appending: relativePath) }

    /// A line for a known-hosts file naming this server's host key.
    public var knownHostsLine: String { "[127.0.0.1]:\(port) \(hostPublicKey)" }

    public var isRunning: Bool { !process.hasExited }

    /// Stops sshd (SIGTERM, then SIGKILL for its whole process group, sessions included).
    public func stop() { process.stop() }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
