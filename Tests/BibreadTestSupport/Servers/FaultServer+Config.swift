import Foundation

extension FaultServer {
    /// Writes `CONFIG_HOME/bibread/config.toml` naming this server as the plain HTTP remote
    /// `name`, whose .bib is `library.bib`.
    public func writeRemoteConfig(named name: String, configHome: URL) throws {
        let folder = configHome.appendingPathComponent("bibread")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
            [[remote]]
            name = "\(name)"
            url = "\(baseURL.absoluteString)"
            kind = "http"
            libraries = ["library.bib"]
            """.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    }
}
