import DiskIO
import Foundation

/// Where bibread keeps the passwords of remotes given by URL (`https://alice:PASSWORD@host/…`),
/// so that they are never written to a remote's settings (`.bibread-remote.json`, which everyone
/// may read): `$XDG_CONFIG_HOME/bibread/secrets/credentials.json`, by remote name, the file of
/// mode 0600 (written atomically, never readable by others, not even for a moment) in a folder of
/// mode 0700.
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

    /// The file's content: the logins by remote name.
    private struct Content: Codable {
        var remotes: [String: Login] = [:]
    }

    /// The credentials file.
    public let file: URL

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        file = BaseDirectories(environment: environment).config.appendingPathComponent("secrets/credentials.json")
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
        let folder = file.deletingLastPathComponent()
        // The folder first, private from the start: AtomicFile would make it with the umask's mode.
        if mkdir(folder.path, 0o700) != 0 && errno == ENOENT {
            try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            mkdir(folder.path, 0o700)
        }
        guard chmod(folder.path, 0o700) == 0 else {
            throw TransferFailure.write(path: folder.path, reason: String(cString: strerror(errno)))
        }
        let lockPath = folder.appendingPathComponent(".credentials.lock").path
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw TransferFailure.write(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        try SystemCall.retrying("flock") { flock(lock, LOCK_EX) }
        var content = try read()
        guard content.remotes[name] != login else { return }
        content.remotes[name] = login
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
