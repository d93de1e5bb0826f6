import DiskIO
import Foundation

/// Where bibread keeps the passwords of remotes given by URL (`https://alice:PASSWORD@host/…`),
/// so that they are never written to a remote's settings (`.bibread-remote.json`, which everyone
/// may read): `$XDG_CONFIG_HOME/bibread/secrets/credentials.json`, by remote name, the file of
/// mode 0600 (written atomically, never readable by others, not even for a moment) in a folder of
/// mode 0700. It also keeps the Dropbox sign-ins of `bibread login dropbox` (refresh tokens, by
/// remote name, or the one for every Dropbox remote without its own) and a sign-in begun and
/// waiting for its code (the PKCE code verifier). Access tokens are never kept.
///
/// When a Secret Service keyring is running (``SecretServiceKeyring``, unless
/// `BIBREAD_KEYRING=off`), a Dropbox sign-in's refresh token is kept there instead, and the file
/// keeps only its app key and that the token is in the keyring.
public struct CredentialStore: Sendable {
    /// A user name and its password.
    public struct Login: Sendable, Equatable, Codable {
        public var user: String
        public var password: String

        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// A Dropbox sign-in: the refresh token and the app key it was issued to.
    public struct DropboxLogin: Sendable, Equatable, Codable {
        public var refreshToken: String
        public var appKey: String

        public init(refreshToken: String, appKey: String) {
            self.refreshToken = refreshToken
            self.appKey = appKey
        }
    }

    /// A Dropbox sign-in begun (its address printed) and waiting for the code: the PKCE code
    /// verifier the address's challenge was made from, and the app key.
    public struct PendingDropboxLogin: Sendable, Equatable, Codable {
        public var verifier: String
        public var appKey: String

        public init(verifier: String, appKey: String) {
            self.verifier = verifier
            self.appKey = appKey
        }
    }

    /// Where a Dropbox sign-in's refresh token was kept.
    public enum TokenPlace: Sendable, Equatable {
        /// The Secret Service keyring.
        case keyring
        /// The credentials file (``file``).
        case file
    }

    /// A Dropbox sign-in as the file keeps it: the refresh token, or (`refreshTokenInKeyring`)
    /// the word that the keyring holds it. Files written before the keyring have the token.
    private struct KeptDropboxLogin: Codable {
        var refreshToken: String?
        var appKey: String
        var refreshTokenInKeyring: Bool?
    }

    /// The file's content: the logins by remote name; the Dropbox sign-ins and those begun, by
    /// remote name, "" for the one every Dropbox remote without its own uses.
    private struct Content: Codable {
        var remotes: [String: Login] = [:]
        var dropbox: [String: KeptDropboxLogin]?
        var dropboxPending: [String: PendingDropboxLogin]?
    }

    /// The credentials file.
    public let file: URL
    /// The environment, for the keyring (its bus, `BIBREAD_KEYRING`, `PATH`).
    private let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        file = BaseDirectories(environment: environment).config.appendingPathComponent("secrets/credentials.json")
        self.environment = environment
    }

    /// The login kept for the remote `name`, if any.
    public func login(for name: String) -> Login? {
        (try? read())?.remotes[name]
    }

    /// Keeps `login` for the remote `name` (replacing the one kept before).
    ///
    /// The file is read, changed and replaced under an exclusive lock (`flock` on
    /// `.credentials.lock` beside it), so that two syncs saving logins at once (each of its own
    /// remote) never write over each other's.
    public func save(_ login: Login, for name: String) throws {
        try change { content in
            guard content.remotes[name] != login else { return false }
            content.remotes[name] = login
            return true
        }
    }

    /// The Dropbox sign-in kept for the remote `name` (nil: the one for every Dropbox remote);
    /// nil when there is none. A sign-in whose token is in the keyring is read from it: it
    /// throws ``RemoteError/keyringUnreachable(signInCommand:)`` when the keyring cannot be
    /// reached now, and ``RemoteError/missingCredentials(_:)`` when it no longer holds the token.
    public func dropboxLogin(for name: String?) throws -> DropboxLogin? {
        guard let kept = (try? read())?.dropbox?[name ?? ""] else { return nil }
        if let token = kept.refreshToken { return DropboxLogin(refreshToken: token, appKey: kept.appKey) }
        guard kept.refreshTokenInKeyring == true else { return nil }
        let command = Self.signInCommand(name)
        guard let keyring = SecretServiceKeyring(environment: environment) else {
            throw RemoteError.keyringUnreachable(signInCommand: command)
        }
        let token: String?
        do {
            token = try keyring.secret(for: Self.keyringAttributes(name))
        } catch {
            throw RemoteError.keyringUnreachable(signInCommand: command)
        }
        guard let token else {
            throw RemoteError.missingCredentials("the Dropbox sign-in \(Self.subject(name)) was kept in the Secret Service keyring, "
                                                 + "which no longer holds it; run `\(command)` again")
        }
        return DropboxLogin(refreshToken: token, appKey: kept.appKey)
    }

    /// Keeps the Dropbox sign-in of the remote `name` (nil: the one for every Dropbox remote):
    /// its refresh token in the Secret Service keyring when one answers, else in the file; a
    /// sign-in kept ends the one begun for it. Returns where the token was kept.
    @discardableResult
    public func setDropboxLogin(_ login: DropboxLogin, for name: String?) throws -> TokenPlace {
        var kept = KeptDropboxLogin(refreshToken: login.refreshToken, appKey: login.appKey)
        if let keyring = SecretServiceKeyring(environment: environment), keyring.answers(),
           (try? keyring.store(login.refreshToken, label: "bibread: Dropbox sign-in \(Self.subject(name))",
                               attributes: Self.keyringAttributes(name))) != nil {
            kept = KeptDropboxLogin(refreshToken: nil, appKey: login.appKey, refreshTokenInKeyring: true)
        }
        try change { content in
            content.dropbox = content.dropbox ?? [:]
            content.dropbox?[name ?? ""] = kept
            content.dropboxPending?[name ?? ""] = nil
            return true
        }
        return kept.refreshTokenInKeyring == true ? .keyring : .file
    }

    /// Forgets the Dropbox sign-in of the remote `name` (nil: the one for every Dropbox remote):
    /// its token is removed from the keyring (when one answers; when the sign-in was kept there,
    /// a keyring that cannot be reached is ``RemoteError/keyringUnreachable(signInCommand:)``
    /// and nothing is forgotten) and the sign-in from the file.
    public func removeDropboxLogin(for name: String?) throws {
        let inKeyring = (try? read())?.dropbox?[name ?? ""]?.refreshTokenInKeyring == true
        if let keyring = SecretServiceKeyring(environment: environment) {
            do {
                try keyring.clear(Self.keyringAttributes(name))
            } catch where inKeyring {
                throw RemoteError.keyringUnreachable(signInCommand: Self.signInCommand(name))
            } catch {
                // The token is in the file: a keyring that does not answer holds none of it.
            }
        } else if inKeyring {
            throw RemoteError.keyringUnreachable(signInCommand: Self.signInCommand(name))
        }
        try change { content in
            content.dropbox?[name ?? ""] = nil
            content.dropboxPending?[name ?? ""] = nil
            return true
        }
    }

    /// What the keyring finds the refresh token of the remote `name`'s sign-in by (nil: the one
    /// for every Dropbox remote, `.every-dropbox-remote`: no remote's name starts with a dot).
    static func keyringAttributes(_ name: String?) -> SecretServiceKeyring.Attributes {
        ["application": "bibread", "kind": "dropbox-refresh-token", "remote": name ?? ".every-dropbox-remote"]
    }

    /// The command that signs in again: `bibread login dropbox [--remote NAME]`.
    private static func signInCommand(_ name: String?) -> String {
        "bibread login dropbox" + (name.map { " --remote \($0)" } ?? "")
    }

    private static func subject(_ name: String?) -> String {
        name.map { "for remote '\($0)'" } ?? "for every Dropbox remote"
    }

    /// The Dropbox sign-in begun for the remote `name` and waiting for its code.
    public func pendingDropboxLogin(for name: String?) -> PendingDropboxLogin? {
        (try? read())?.dropboxPending?[name ?? ""]
    }

    /// Keeps the code verifier of a Dropbox sign-in begun for the remote `name` (replacing an
    /// earlier one).
    public func setPendingDropboxLogin(_ pending: PendingDropboxLogin, for name: String?) throws {
        try change { content in
            content.dropboxPending = content.dropboxPending ?? [:]
            content.dropboxPending?[name ?? ""] = pending
            return true
        }
    }

    /// Reads the file, lets `body` change its content (it returns whether it did) and replaces
    /// the file, all under an exclusive lock.
    private func change(_ body: (inout Content) -> Bool) throws {
        let folder = file.deletingLastPathComponent()
        // The folder first, private from the start: AtomicFile would make it with the umask's mode.
        if mkdir(folder.path, 0o700) != 0 && errno == ENOENT {
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            mkdir(folder.path, 0o700)
        }
        guard chmod(folder.path, 0o700) == 0 else {
            throw TransferFailure.write(path: folder.path, reason: String(cString: strerror(errno)))
        }
        let lockFile = folder.appendingPathComponent(".credentials.lock")
        let lock: ExclusiveFileLock
        do {
            lock = try ExclusiveFileLock.acquire(lockFile)
        } catch {
            throw TransferFailure.write(path: lockFile.path, reason: error.reason)
        }
        defer { lock.release() }
        var content = try read()
        guard body(&content) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(try encoder.encode(content), to: file, mode: 0o600)
    }

    /// What the file holds: nothing when there is no file; an error when there is one that
    /// cannot be read (it is not replaced, with the logins in it).
    private func read() throws -> Content {
        guard FileManager.default.fileExists(atPath: file.path) else { return Content() }
        guard let data = try? Data(contentsOf: file), let content = try? JSONDecoder().decode(Content.self, from: data) else {
            throw RemoteError.missingCredentials("\(file.path) cannot be read as bibread's credentials file; correct or remove it")
        }
        return content
    }
}
