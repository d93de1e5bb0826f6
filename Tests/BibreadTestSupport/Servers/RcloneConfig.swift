import Foundation

/// What went wrong making an rclone remote for a test.
public struct RcloneConfigError: Error, CustomStringConvertible {
    public let description: String
}

/// A test-only rclone configuration file (`RCLONE_CONFIG`), its remotes made by the real rclone
/// (`rclone config create NAME local`, a `crypt` remote over one, a `webdav` one pointing at a
/// test lighttpd on 127.0.0.1): nothing of this machine's own rclone configuration is read.
public final class RcloneConfig: @unchecked Sendable {
    /// The configuration file.
    public let file: URL

    /// The variable that points rclone (and bibread's runs of it) at this file.
    public var environment: [String: String] { ["RCLONE_CONFIG": file.path] }

    /// An empty configuration in `folder` (made when missing).
    public init(in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("rclone.conf")
        FileManager.default.createFile(atPath: file.path, contents: Data(), attributes: [.posixPermissions: 0o600])
    }

    /// A remote of rclone's `local` backend: `NAME:/some/folder` is that folder.
    public func addLocal(_ name: String) throws {
        try create(name, "local")
    }

    /// A `crypt` remote over `remote` (`loc:/folder`): names and bytes there are encrypted with `password`.
    public func addCrypt(_ name: String, over remote: String, password: String) throws {
        try create(name, "crypt", "remote=\(remote)", "password=\(password)")
    }

    /// A `webdav` remote (vendor `other`) at `url`.
    public func addWebDAV(_ name: String, url: URL) throws {
        try create(name, "webdav", "url=\(url.absoluteString)", "vendor=other")
    }

    /// Runs rclone with this configuration; throws when it fails.
    @discardableResult
    public func run(_ arguments: [String]) throws -> String {
        let result = try ProcessRunner.run(URL(fileURLWithPath: try Self.executable()), arguments, environment: environment)
        guard result.status == 0 else {
            throw RcloneConfigError(description: "rclone \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.standardError)")
        }
        return result.standardOutput
    }

    private func create(_ name: String, _ type: String, _ parameters: String...) throws {
        try run(["config", "create", name, type] + parameters)
    }

    /// rclone on PATH (`scripts/install-deps.sh test` installs it).
    public static func executable() throws -> String {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let found = folders.map({ "\($0)/rclone" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw RcloneConfigError(description: "rclone is not installed: run scripts/install-deps.sh test")
        }
        return found
    }
}
