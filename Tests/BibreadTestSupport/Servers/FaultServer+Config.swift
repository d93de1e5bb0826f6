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

extension Fixtures {
    /// HOME and the XDG folders (data, cache, config, state) of a machine of its own below `root`.
    public static func machineEnvironment(under root: URL) -> [String: String] {
        var environment = ["HOME": root.path]
        for (variable, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")] {
            environment[variable] = root.appendingPathComponent(folder).path
        }
        return environment
    }
}
