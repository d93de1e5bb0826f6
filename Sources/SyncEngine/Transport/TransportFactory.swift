import Foundation

/// Builds the transport for a remote, with its credentials resolved.
public enum TransportFactory {
    /// The environment variable a Dropbox token is read from when config names none.
    public static let defaultTokenVariable = "BIBREAD_DROPBOX_TOKEN"

    public static func make(_ remote: Remote, session: CurlSession,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> any Transport {
        switch remote.kind {
        case .folder:
            return try FolderTransport(url: remote.url)
        case .webdav:
            return WebDAVTransport(url: remote.url, session: session, credentials: try httpCredentials(remote, environment))
        case .http:
            return HTTPFolderTransport(url: remote.url, session: session, credentials: try httpCredentials(remote, environment))
        case .sftp:
            let home = environment["HOME"] ?? NSHomeDirectory()
            let knownHosts = remote.knownHosts ?? home + "/.ssh/known_hosts"
            switch remote.credentials {
            case .sshKey(let privateKey, let publicKey):
                return SFTPTransport(url: remote.url, session: session,
                                     credentials: .ssh(user: nil, privateKey: expand(privateKey, home), publicKey: publicKey.map { expand($0, home) },
                                                       passphrase: nil, knownHosts: knownHosts))
            default:
                // No key file named: ssh-agent.
                return SFTPTransport(url: remote.url, session: session,
                                     credentials: .ssh(user: nil, privateKey: nil, publicKey: nil, passphrase: nil, knownHosts: knownHosts))
            }
        case .rclone:
            return try RcloneTransport(url: remote.url, environment: environment)
        case .dropbox:
            return DropboxTransport(url: remote.url, apiBase: remote.apiBase, access: try dropboxAccess(remote, environment, session),
                                    session: session)
        }
    }

    private static func httpCredentials(_ remote: Remote, _ environment: [String: String]) throws -> TransferCredentials {
        switch remote.credentials {
        case .environment(let userVariable, let passwordVariable):
            guard let user = environment[userVariable], let password = environment[passwordVariable] else {
                throw RemoteError.missingCredentials("remote '\(remote.name)' reads its user and password from $\(userVariable) and $\(passwordVariable); set both")
            }
            return .basic(user: user, password: password)
        case .tokenEnvironment, .tokenCommand:
            return .bearer(try dropboxToken(remote, environment))
        case .stored:
            let store = CredentialStore(environment: environment)
            guard let login = store.login(for: remote.name) else {
                throw RemoteError.missingCredentials("remote '\(remote.name)' keeps its password in \(store.file.path), which has none for it; sync it once more with the URL as user:password@…")
            }
            return .basic(user: login.user, password: login.password)
        default:
            return .netrc
        }
    }

    /// A token the remote names (`token_command`, `token_env`), else the sign-in of
    /// `bibread login dropbox` kept for it (or for every Dropbox remote; its token read from the
    /// Secret Service keyring when it is kept there), else `$BIBREAD_DROPBOX_TOKEN`.
    private static func dropboxAccess(_ remote: Remote, _ environment: [String: String], _ session: CurlSession) throws -> DropboxAccess {
        switch remote.credentials {
        case .tokenCommand, .tokenEnvironment:
            return DropboxAccess(token: try dropboxToken(remote, environment))
        default:
            let store = CredentialStore(environment: environment)
            if let login = try store.dropboxLogin(for: remote.name) {
                return DropboxAccess(login: login, apiBase: remote.apiBase, session: session,
                                     signInCommand: "bibread login dropbox --remote \(remote.name)")
            }
            if let login = try store.dropboxLogin(for: nil) {
                return DropboxAccess(login: login, apiBase: remote.apiBase, session: session, signInCommand: "bibread login dropbox")
            }
            if let token = environment[defaultTokenVariable], !token.isEmpty { return DropboxAccess(token: token) }
            throw RemoteError.missingCredentials("remote '\(remote.name)' is not signed in to Dropbox: run `bibread login dropbox --remote \(remote.name)` (or name a token with token_env or token_command in config.toml)")
        }
    }

    private static func dropboxToken(_ remote: Remote, _ environment: [String: String]) throws -> String {
        switch remote.credentials {
        case .tokenCommand(let command):
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw RemoteError.missingCredentials("remote '\(remote.name)': cannot run its token command")
            }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard process.terminationStatus == 0, !token.isEmpty else {
                throw RemoteError.missingCredentials("remote '\(remote.name)': its token command failed or printed nothing")
            }
            return token
        case .tokenEnvironment(let variable):
            guard let token = environment[variable], !token.isEmpty else {
                throw RemoteError.missingCredentials("remote '\(remote.name)' reads its token from $\(variable); set it")
            }
            return token
        default:
            guard let token = environment[defaultTokenVariable], !token.isEmpty else {
                throw RemoteError.missingCredentials("remote '\(remote.name)' needs a Dropbox token: set $\(defaultTokenVariable) or token_env / token_command in config.toml")
            }
            return token
        }
    }

    private static func expand(_ path: String, _ home: String) -> String {
        path.hasPrefix("~/") ? home + path.dropFirst() : path
    }
}
